/**
 * Whole-number steps for a counts axis: about four, each 1, 2 or 5 times a power of ten (never a fraction
 * of a click or a sign-up), from 0 to the first step at or above the largest count (0 to 1 when all are 0).
 */
export function countTicks(largest: number): number[] {
  const top = Math.max(Math.ceil(largest), 1);
  const rough = top / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((factor) => factor * power).find((size) => size >= rough) ?? 1);
  const ticks: number[] = [];
  for (let tick = 0; tick < top + step; tick += step) ticks.push(tick);
  return ticks;
}
