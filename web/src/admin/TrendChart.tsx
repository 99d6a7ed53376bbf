import { Card, Text } from '@mantine/core';
import { useId } from 'react';
import { countTicks } from '../components/countTicks';
import { dayLabel } from './trendAxis';

export interface TrendPoint {
  /** `YYYY-MM-DD`. */
  date: string;
  value: number;
}

const WIDTH = 300;
const HEIGHT = 120;
/** Room for the axis's numbers on the left and the day names below, in the drawing's units. */
const LEFT = 44;
const BOTTOM = 18;
const TOP = 6;

/**
 * One trend as bars, a day each: the value axis at round numbers with light lines across, the first,
 * middle and last day named under it. An SVG of a few dozen rectangles, so it costs no chart library;
 * a screen reader reads its title and what the figure sums up (`summary`).
 */
export function TrendChart({
  title,
  summary,
  points,
  format,
}: {
  title: string;
  summary: string;
  points: readonly TrendPoint[];
  /** How an axis number reads ("12", "$40"). */
  format(value: number): string;
}) {
  const titleId = useId();
  const ticks = countTicks(Math.max(0, ...points.map((point) => point.value)));
  const top = ticks.at(-1) ?? 1;
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(points.length, 1);
  const named = new Set([0, Math.floor((points.length - 1) / 2), points.length - 1]);

  return (
    <Card withBorder padding="sm" radius="md" component="figure" m={0} aria-labelledby={titleId}>
      <Text id={titleId} size="sm" fw={600}>
        {title}
      </Text>
      <Text size="xs" c="dimmed" mb={4}>
        {summary}
      </Text>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={`${title}: ${summary}`}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={LEFT} x2={WIDTH} y1={y(tick)} y2={y(tick)} stroke="var(--mantine-color-gray-3)" />
            <text
              x={LEFT - 4}
              y={y(tick)}
              textAnchor="end"
              dominantBaseline="middle"
              fontSize={10}
              fill="var(--mantine-color-text)"
            >
              {format(tick)}
            </text>
          </g>
        ))}
        {points.map((point, index) => (
          <g key={point.date}>
            <rect
              x={LEFT + index * slot + slot * 0.15}
              width={slot * 0.7}
              y={y(point.value)}
              height={Math.max(0, TOP + plotHeight - y(point.value))}
              fill="var(--mantine-color-blue-6)"
            >
              <title>{`${dayLabel(point.date)}: ${format(point.value)}`}</title>
            </rect>
            {named.has(index) && (
              <text
                x={LEFT + index * slot + slot / 2}
                y={HEIGHT - 4}
                textAnchor={index === 0 ? 'start' : index === points.length - 1 ? 'end' : 'middle'}
                fontSize={10}
                fill="var(--mantine-color-text)"
              >
                {dayLabel(point.date)}
              </text>
            )}
          </g>
        ))}
      </svg>
    </Card>
  );
}
