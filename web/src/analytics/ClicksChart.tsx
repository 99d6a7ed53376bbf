import { Box, Text, Tooltip } from '@mantine/core';
import { countTicks } from '../components/countTicks';
import { namedBars } from './axis';

export interface ChartBar {
  /** Unique among the bars (the hour or day's start). */
  key: string;
  /** The name under the bar, when it gets one. */
  label: string;
  /** The hour or day in full, for the tooltip. */
  title: string;
  clicks: number;
}

/** Height of the row of names under the bars, in px. */
const axisHeight = 24;
/** Width of the column of click counts left of the bars, in px. */
const countsWidth = 36;
const gridLine = '1px dashed var(--mantine-color-gray-3)';

/**
 * Clicks per hour or day as bars: the counts axis on the left at whole numbers with dashed lines across, a
 * name under every few bars (always the last), each bar's count on hover. Bars are boxes sized by CSS, so
 * the chart costs no chart library; those who cannot see it read the summary its caller gives.
 */
export function ClicksChart({ bars, h }: { bars: readonly ChartBar[]; h: number }) {
  const ticks = countTicks(Math.max(0, ...bars.map(({ clicks }) => clicks)));
  const top = ticks[ticks.length - 1] ?? 1;
  const named = namedBars(bars.length);
  const percentOf = (count: number) => `${(count / top) * 100}%`;

  return (
    <Box h={h} pt={8} style={{ display: 'flex' }} data-chart>
      <Box w={countsWidth} mb={axisHeight} pos="relative" style={{ flexShrink: 0 }} data-chart-ticks>
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
            {tick.toLocaleString()}
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
            {bars.map(({ key, title, clicks }) => (
              <Tooltip key={key} label={`${title}: ${clicks} ${clicks === 1 ? 'click' : 'clicks'}`}>
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
          {bars.map(({ key, label }, index) => (
            // A flex cell centres a name wider than its bar over both neighbours; the last one's name ends
            // where the chart ends.
            <Box
              key={key}
              pt={6}
              style={{
                flex: 1,
                minWidth: 0,
                display: 'flex',
                justifyContent: index === bars.length - 1 ? 'flex-end' : 'center',
              }}
            >
              {named(index) && (
                <Text component="span" size="xs" c="dimmed" lh={1} style={{ whiteSpace: 'nowrap' }}>
                  {label}
                </Text>
              )}
            </Box>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
