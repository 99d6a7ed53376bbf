import type { Feature } from '../features';
import { DashboardGreeting } from './DashboardGreeting';
import { DashboardStats } from './DashboardStats';
import { OnboardingCard } from './OnboardingCard';

/** The home's own cards: the greeting, the onboarding reminder and the figures. */
export const dashboardFeature: Feature = {
  dashboardCards: [
    { key: 'greeting', order: 10, render: ({ user }) => <DashboardGreeting user={user} /> },
    {
      key: 'onboarding',
      order: 40,
      render: ({ user }) => <OnboardingCard usedCount={user.linkAllowance.used} />,
    },
    { key: 'stats', order: 60, render: ({ user }) => <DashboardStats user={user} /> },
  ],
};
