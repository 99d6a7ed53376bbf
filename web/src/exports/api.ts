import { exportEndpoints } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call, urlOf } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const { latestExport, startExport, downloadExport } = exportEndpoints;
const LATEST = latestExport.path;

/** How often the card asks while an export builds: progress moves in steps of a second or so. */
const BUILDING_POLL_MS = 1_000;

/** The user's latest data export; asked again every second while it builds. */
export const latestExportQueryOptions = () =>
  queryOptions({
    queryKey: [LATEST] as const,
    queryFn: ({ signal }) => call(latestExport, {}, { signal }),
    refetchInterval: (query) => (query.state.data?.export?.status === 'building' ? BUILDING_POLL_MS : false),
  });

export const useStartExport = () => useRefreshingMutation(() => call(startExport, {}), [[LATEST]]);

/** Where the ZIP of an export downloads from (the owner's session is the cookie the browser sends). */
export const exportDownloadUrl = (id: string) => urlOf(downloadExport, { params: { id } });
