import { iso31661Alpha2ToNumeric } from 'iso-3166';
import type { ComponentProps } from 'react';
import { ComposableMap, Geographies, Geography } from 'react-simple-maps/core';
import countries110m from 'world-atlas/countries-110m.json';

// react-simple-maps reads a TopoJSON topology as it is (its first object's features); its types name
// GeoJSON only.
const world = countries110m as unknown as ComponentProps<typeof Geographies>['geography'];

/** A country with clicks shades between these, by its share of the busiest country's clicks. */
const least = 'var(--mantine-color-blue-2)';
const most = 'var(--mantine-color-blue-8)';
const none = 'var(--mantine-color-gray-2)';

/**
 * The world's countries (world-atlas, 1:110m, loaded with this component only) shaded by their clicks.
 * The map's outlines are keyed by ISO 3166-1 numeric codes; clicks by alpha-2 ones. Those who cannot see
 * it read its summary, and the Countries list beside it has the same figures.
 */
export default function CountryMap({
  countries,
  nameOf,
}: {
  countries: readonly { label: string; clicks: number }[];
  nameOf(code: string): string;
}) {
  const byNumeric = new Map<string, { label: string; clicks: number }>();
  for (const country of countries) {
    const numeric = iso31661Alpha2ToNumeric[country.label];
    if (numeric) byNumeric.set(numeric, country);
  }
  const busiest = Math.max(1, ...countries.map(({ clicks }) => clicks));
  const summary = `World map of clicks: ${countries.map(({ label, clicks }) => `${nameOf(label)} ${clicks}`).join(', ')}`;

  return (
    <div role="img" aria-label={summary} data-country-map>
      <ComposableMap projection="geoEqualEarth" width={800} height={400} projectionConfig={{ scale: 150 }}>
        <Geographies geography={world}>
          {({ geographies }) =>
            geographies.map((geography) => {
              const country = byNumeric.get(String(geography.id));
              const fill = country
                ? `color-mix(in srgb, ${most} ${Math.round((country.clicks / busiest) * 100)}%, ${least})`
                : none;
              const style = { fill, stroke: 'var(--mantine-color-body)', strokeWidth: 0.5, outline: 'none' };
              return (
                <Geography
                  key={geography.rsmKey}
                  geography={geography}
                  // The summary names every country with clicks: no path needs a keyboard stop of its own.
                  tabIndex={-1}
                  data-clicked={country ? country.label : undefined}
                  style={style}
                >
                  {country && <title>{`${nameOf(country.label)}: ${country.clicks}`}</title>}
                </Geography>
              );
            })
          }
        </Geographies>
      </ComposableMap>
    </div>
  );
}
