import type { Feature } from '../features';
import { CreateLinkForm } from './CreateLinkForm';
import { LinkList } from './LinkList';

/** The form that shortens a link and the user's links, on the home. */
export const linksFeature: Feature = {
  dashboardCards: [
    {
      key: 'create-link',
      order: 50,
      render: ({ user }) => <CreateLinkForm allowance={user.linkAllowance} />,
    },
    { key: 'links', order: 70, render: () => <LinkList /> },
  ],
};
