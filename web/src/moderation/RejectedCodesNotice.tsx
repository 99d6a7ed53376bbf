import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { codeRejectionNoticesQueryOptions } from './api';

/**
 * On the home: the user's short codes an admin did not approve in the last 30 days, why, and the code
 * each link has now (they may change it). Nothing at all when there is none.
 */
export function RejectedCodesNotice() {
  const { data: notices = [] } = useQuery(codeRejectionNoticesQueryOptions());
  if (notices.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      title={notices.length === 1 ? 'A short code was not approved' : 'Short codes were not approved'}
      icon={<IconAlertTriangle aria-hidden />}
      role="status"
    >
      <List size="sm" spacing={4}>
        {notices.map((notice) => (
          <List.Item key={notice.id}>
            <Text span size="sm">
              <Text span ff="monospace">
                {notice.rejectedCode}
              </Text>
              : {notice.reason}.
              {notice.newCode && (
                <>
                  {' '}
                  The link now has the code{' '}
                  <Text span ff="monospace">
                    {notice.newCode}
                  </Text>
                  ; you can change it.
                </>
              )}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
