// Apart from the schemas: the web app's address reads these on its first screen, without the schemas.
/** The ranges a link's analytics can be asked for besides a custom one (`from`/`to`). */
export const analyticsRanges = ['24h', '7d', '30d', '90d'] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];

/** A custom range spans at most this many days (a year, leap day included). */
export const MAX_CUSTOM_RANGE_DAYS = 366;
