import {
  type MarketplaceCategoryKey,
  marketplaceCategoryKeys,
  type PremiumCategory,
} from '@sniplink/contracts/premium-slugs';
import {
  IconBolt,
  IconClock,
  IconDeviceLaptop,
  IconMessageCircle,
  IconNumbers,
  IconShoppingCart,
  IconSparkles,
  type TablerIcon,
} from '@tabler/icons-react';

/**
 * How each marketplace category key looks: its icon, colour and name. Icons from one set, drawn as SVG
 * (emoji show as empty boxes on some systems); a module of its own, so that the first screen's code
 * (which reads the purchase facts) holds no icon.
 */
const categoryLooks: Record<MarketplaceCategoryKey, { icon: TablerIcon; color: string; label: string }> = {
  'ultra-short': { icon: IconBolt, color: 'grape', label: 'Ultra Short' },
  common: { icon: IconMessageCircle, color: 'blue', label: 'Common Words' },
  commerce: { icon: IconShoppingCart, color: 'green', label: 'Commerce' },
  time: { icon: IconClock, color: 'orange', label: 'Time & Urgency' },
  lifestyle: { icon: IconSparkles, color: 'pink', label: 'Lifestyle & Status' },
  tech: { icon: IconDeviceLaptop, color: 'cyan', label: 'Tech Terms' },
  special: { icon: IconNumbers, color: 'yellow', label: 'Number Patterns' },
};

/** The look of a stored category, through its marketplace key. */
export const categoryLook = (category: PremiumCategory) => categoryLooks[marketplaceCategoryKeys[category]];
