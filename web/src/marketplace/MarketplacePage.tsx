import {
  Anchor,
  Badge,
  Box,
  Breadcrumbs,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { MarketplaceSlug, User } from '@sniplink/contracts';
import { pages } from '@sniplink/contracts/pages';
import {
  MAX_OWNED_PREMIUM_SLUGS,
  type PremiumCategory,
  premiumCategories,
} from '@sniplink/contracts/premium-slugs';
import { type QueryClient, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { currentUserQueryOptions } from '../accounts/api';
import { isPro } from '../accounts/plan';
import { loginHref, signedInUserOrNull } from '../accounts/useSignedInUser';
import { usePurchasesDisabled } from '../billing/api';
import { useInAppClick } from '../components/inAppLink';
import { PageTitle } from '../components/PageTitle';
import { SignedInPage } from '../components/SignedInPage';
import { useHydrated } from '../components/useHydrated';
import { marketplaceSlugsQueryOptions, myPremiumSlugsQueryOptions } from './api';
import { categoryLook } from './categoryLooks';
import { dollars, type PurchaseAction, purchaseActionFor, tierLabels } from './premiumFacts';

const page = pages['/marketplace'];

/**
 * What the page needs before it shows: the slugs for sale, who is asking (their buttons depend on it)
 * and, for a Pro user, how many they own. A prefetch never fails: if the count cannot be loaded, the
 * server still holds a buyer to the limit.
 */
export async function loadMarketplace(queryClient: QueryClient): Promise<void> {
  const [, user] = await Promise.all([
    queryClient.ensureQueryData(marketplaceSlugsQueryOptions()),
    signedInUserOrNull(queryClient),
  ]);
  if (user && isPro(user)) await queryClient.prefetchQuery(myPremiumSlugsQueryOptions());
}

/** /marketplace: search and category filter over the slugs for sale, as cards. */
export function MarketplacePage() {
  const { data: user } = useQuery(currentUserQueryOptions());
  const slugs = useSuspenseQuery(marketplaceSlugsQueryOptions());
  // How many the user owns (the limit rule itself is `purchaseActionFor`); only a Pro user can buy.
  const owned = useQuery({ ...myPremiumSlugsQueryOptions(), enabled: Boolean(user && isPro(user)) });
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<PremiumCategory | null>(null);
  // The filters work only with the app's script: on the page the server rendered they wait, disabled,
  // until the app has taken it over, so that nothing typed before then is lost.
  const hydrated = useHydrated();
  const shown = useMemo(() => {
    const wanted = search.trim().toLowerCase();
    return slugs.data.filter(
      (slug) => (category === null || slug.category === category) && slug.slug.includes(wanted),
    );
  }, [slugs.data, search, category]);
  const action = purchaseActionFor(
    user ? { signedIn: true, pro: isPro(user), owned: owned.data?.length ?? 0 } : { signedIn: false },
    MAX_OWNED_PREMIUM_SLUGS,
  );

  const filtered = search.trim() !== '' || category !== null;

  return (
    <SignedInPage>
      <PageTitle title={page.title} />
      <Stack gap="lg">
        <MarketplaceBreadcrumbs signedIn={Boolean(user)} />
        <Stack gap={4}>
          <Title order={1}>{page.title}</Title>
          <Text c="dimmed">{page.description}</Text>
        </Stack>
        {slugs.data.length === 0 ? (
          <NothingForSale user={user ?? null} />
        ) : (
          <>
            <Group gap="sm" wrap="wrap">
              <TextInput
                aria-label="Search premium slugs"
                placeholder="Search slugs"
                disabled={!hydrated}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                w={260}
              />
              <Select
                aria-label="Category"
                placeholder="All categories"
                data={premiumCategories.map((value) => ({ value, label: categoryLook(value).label }))}
                value={category}
                disabled={!hydrated}
                clearable
                onChange={(value) => setCategory(value as PremiumCategory | null)}
                w={220}
              />
            </Group>
            {shown.length === 0 && filtered ? (
              <Group gap="sm">
                <Text c="dimmed">No premium slugs match.</Text>
                <Button
                  variant="subtle"
                  onClick={() => {
                    setSearch('');
                    setCategory(null);
                  }}
                >
                  Clear filters
                </Button>
              </Group>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
                {shown.map((slug) => (
                  <SlugCard key={slug.id} slug={slug} action={action} />
                ))}
              </SimpleGrid>
            )}
          </>
        )}
      </Stack>
    </SignedInPage>
  );
}

/**
 * The marketplace before anything is for sale: what it is for, and what happens next (an admin is shown
 * where to add slugs; everyone else that there are none yet).
 */
function NothingForSale({ user }: { user: User | null }) {
  const toPremiumTab = useInAppClick('/admin?tab=premium');
  return (
    <Card withBorder radius="md" padding="xl" component="section" aria-labelledby="nothing-for-sale">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" id="nothing-for-sale">
          No premium slugs yet
        </Title>
        {user?.isAdmin ? (
          <>
            <Text>
              Premium slugs are short, memorable codes that Pro members buy for their links. None are listed
              yet: an admin adds them in the Premium tab of the admin console.
            </Text>
            <Button component="a" href="/admin?tab=premium" onClick={toPremiumTab}>
              Open the Premium tab
            </Button>
          </>
        ) : (
          <Text>
            Premium slugs are short, memorable codes that Pro members buy for their links. None are for sale
            yet: new ones show here as soon as they are listed.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function MarketplaceBreadcrumbs({ signedIn }: { signedIn: boolean }) {
  return (
    <Box component="nav" aria-label="Breadcrumbs">
      <Breadcrumbs>
        <Anchor component={Link} to="/">
          {signedIn ? 'Dashboard' : 'Home'}
        </Anchor>
        <Text span>{signedIn ? 'Premium Slugs' : 'Marketplace'}</Text>
      </Breadcrumbs>
    </Box>
  );
}

function SlugCard({ slug, action }: { slug: MarketplaceSlug; action: PurchaseAction }) {
  const look = categoryLook(slug.category);
  return (
    <Card withBorder radius="md" padding="lg" aria-label={`Premium slug ${slug.slug}`} component="article">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <ThemeIcon color={look.color} variant="light" radius="xl" aria-hidden>
              <look.icon size={16} stroke={1.75} />
            </ThemeIcon>
            <Text size="sm" c="dimmed">
              {look.label}
            </Text>
          </Group>
          <Badge color={slug.tier === 'ultra' ? 'grape' : slug.tier === 'premium' ? 'blue' : 'gray'}>
            {tierLabels[slug.tier]}
          </Badge>
        </Group>
        <Text ff="monospace" fz="xl" fw={700}>
          /s/{slug.slug}
        </Text>
        <Text fz="lg" fw={600}>
          {dollars(slug.price)}{' '}
          <Text span size="sm" c="dimmed">
            one-time
          </Text>
        </Text>
        <PurchaseButton slug={slug} action={action} />
      </Stack>
    </Card>
  );
}

function PurchaseButton({ slug, action }: { slug: MarketplaceSlug; action: PurchaseAction }) {
  const purchasesDisabled = usePurchasesDisabled();
  if (purchasesDisabled)
    return (
      <Text size="sm" c="dimmed">
        {purchasesDisabled}
      </Text>
    );
  switch (action.kind) {
    case 'login':
      return (
        <Button component="a" href={loginHref('/marketplace')}>
          {action.label}
        </Button>
      );
    case 'upgrade':
      return (
        <Button component={Link} to="/subscribe" variant="light">
          {action.label}
        </Button>
      );
    case 'limit':
      return <Button disabled>{action.label}</Button>;
    case 'purchase':
      return (
        <Button component="a" href={`/premium/checkout/${encodeURIComponent(slug.id)}`}>
          {action.label}
        </Button>
      );
    default: {
      const unknown: never = action;
      return unknown;
    }
  }
}
