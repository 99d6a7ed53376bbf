import { SegmentedControl, Stack } from '@mantine/core';
import { type PageCopyKey, pageCopyKeys } from '@sniplink/contracts/content/api';
import { adminRoute } from '../admin/places';
import { PageCopyEditor } from './PageCopyEditor';
import { pageInAddress } from './pageInAddress';
import { pageCopyLabel } from './pages';

/** The console's Content tab: one page's copy at a time, picked above the editor. */
export function ContentTab() {
  const { copy } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const page = pageInAddress(copy);
  return (
    <Stack gap="lg">
      <SegmentedControl
        aria-label="Page"
        value={page}
        data={pageCopyKeys.map((key) => ({ value: key, label: pageCopyLabel[key] }))}
        onChange={(value) => navigate({ search: (search) => ({ ...search, copy: value as PageCopyKey }) })}
      />
      {/* Keyed by page: switching pages starts the form from that page's saved draft. */}
      <PageCopyEditor key={page} page={page} />
    </Stack>
  );
}
