import { Box, Text, Tooltip } from '@mantine/core';

export interface DayClicks {
  /** The day as the axis names it (MM-DD). */
  day: string;
  clicks: number;
}

/** Height of the row of day names under the bars, in px. */
const axisHeight = 24;
/** Width of the column of click counts left of the bars, in px. */
const countsWidth = 30;
const gridLine = '1px dashed var(--mantine-color-gray-3)';

/**
 * Whole-number steps for the counts axis: about four, each 1, 2 or 5 times a power of ten, from 0 to
 * the first step at or above the busiest day.
 */
export function countTicks(busiest: number): number[] {
  const top = Math.max(busiest, 1);
  const rough = top / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((factor) => factor * power).find((size) => size >= rough) ?? 1);
  const ticks: number[] = [];
  for (let tick = 0; tick < top + step; tick += step) ticks.push(tick);
  return ticks;
}

/**
 * Clicks per day as bars: the counts axis on the left with dashed lines across, a day's name under
 * every few bars (always the last), each day's count on hover. Bars are boxes sized by CSS, so the
 * chart costs no chart library; those who cannot see it read the summary its caller gives.
 */
export function ClicksPerDayChart({ data, h }: { data: readonly DayClicks[]; h: number }) {
  const ticks = countTicks(Math.max(0, ...data.map(({ clicks }) => clicks)));
  const top = ticks[ticks.length - 1] ?? 1;
  // Five or so day names, counted back from the last day, so they never crowd a phone's width.
  const nameEvery = Math.max(1, Math.ceil(data.length / 5));
  const percentOf = (count: number) => `${(count / top) * 100}%`;

  return (
    <Box h={h} pt={8} style={{ display: 'flex' }}>
      <Box w={countsWidth} mb={axisHeight} pos="relative" style={{ flexShrink: 0 }}>
        {ticks.map((tick) => (
          <Text
            key={tick}
            component="span"
            size="xs"
            c="dimmed"
            pos="absolute"
            right={6}
            bottom={percentOf(tick)}
            lh={1}
            style={{ transform: 'translateY(50%)' }}
          >
            {tick}
          </Text>
        ))}
      </Box>
      <Box style={{ flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        <Box pos="relative" style={{ flex: 1, borderBottom: gridLine }}>
          {ticks.slice(1).map((tick) => (
            <Box
              key={tick}
              pos="absolute"
              left={0}
              right={0}
              bottom={percentOf(tick)}
              style={{ borderTop: gridLine }}
            />
          ))}
          <Box pos="absolute" style={{ inset: 0, display: 'flex' }}>
            {data.map(({ day, clicks }) => (
              <Tooltip key={day} label={`${day}: ${clicks} ${clicks === 1 ? 'click' : 'clicks'}`}>
                <Box
                  style={{
                    flex: 1,
                    minWidth: 0,
                    display: 'flex',
                    alignItems: 'flex-end',
                    justifyContent: 'center',
                  }}
                >
                  {clicks > 0 && (
                    <Box data-chart-bar w="80%" h={percentOf(clicks)} bg="var(--mantine-color-blue-6)" />
                  )}
                </Box>
              </Tooltip>
            ))}
          </Box>
        </Box>
        <Box h={axisHeight} style={{ display: 'flex' }}>
          {data.map(({ day }, index) => (
            // A flex cell centres a name wider than its bar over both neighbours; the last day's name ends
            // where the chart ends.
            <Box
              key={day}
              pt={6}
              style={{
                flex: 1,
                minWidth: 0,
                display: 'flex',
                justifyContent: index === data.length - 1 ? 'flex-end' : 'center',
              }}
            >
              {(data.length - 1 - index) % nameEvery === 0 && (
                <Text component="span" size="xs" c="dimmed" lh={1} style={{ whiteSpace: 'nowrap' }}>
                  {day}
                </Text>
              )}
            </Box>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
