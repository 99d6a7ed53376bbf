export { type AccountDeps, AccountService, toUserJson } from './accounts/accounts';
export { LoginThrottle } from './accounts/login-throttle';
export {
  releaseOrphanedEmailClaims,
  runAccountMaintenance,
  shredKeysOfErasedUsers,
} from './accounts/maintenance';
export { createOidcLogin, OIDC_CALLBACK_PATH, type OidcLoginDeps } from './accounts/oidc';
export { type AccountRoutesDeps, accountRoutes } from './accounts/routes';
export { SessionStore } from './accounts/sessions';
export { type SignupLimits, SignupThrottle } from './accounts/signup-throttle';
export { AnnouncementService } from './admin/announcement-service';
export { announcementAdminRoutes, announcementRoutes } from './admin/announcements';
export { type AuditAdminRoutesDeps, auditAdminRoutes } from './admin/audit';
export { type ConfigAdminRoutesDeps, configAdminRoutes } from './admin/config';
export { ConfigService, type ConfigServiceDeps } from './admin/config-service';
export {
  ADMIN_PREFIX,
  type AdminRouteGroup,
  type AdminRoutesDeps,
  actingAdmin,
  adminRoutes,
} from './admin/routes';
export { type StatsAdminRoutesDeps, statsAdminRoutes } from './admin/stats';
export { type UserAdminRoutesDeps, userAdminRoutes } from './admin/users';
export { type AnalyticsRoutesDeps, analyticsRoutes } from './analytics/routes';
export { type AppDeps, buildApp, type RouteGroup } from './app';
export { BillingService } from './billing/billing-service';
export { CheckoutReturns, checkoutReturnRoutes } from './billing/checkout-return';
export type { PaymentProvider } from './billing/provider';
export {
  createPaymentProvider,
  type PaymentProviderDeps,
  type PaymentSetup,
} from './billing/providers/create-provider';
export type { DeliverWebhook } from './billing/providers/local-events';
export { type BillingRoutesDeps, billingRoutes } from './billing/routes';
export { DemoService, type DemoServiceDeps } from './demo/demo-service';
export { type DemoLimits, DemoThrottle } from './demo/demo-throttle';
export { claimDemoLinksOnSignIn, type DemoRoutesDeps, demoRoutes } from './demo/routes';
export { buildFeatures, type Feature, migrationsOf, type Ports } from './feature';
export { type CheckResult, checkReadiness, type Readiness, type ReadinessCheck } from './health/readiness';
export {
  counterOf,
  createMetricsRegistry,
  databaseGauges,
  gaugeOf,
  type Registry,
} from './http/metrics';
export { postgresRateLimiters, type RateLimiters } from './http/rate-limiter';
export { CodeChangeThrottle } from './links/code-change-throttle';
export { pruneIdempotencyKeys } from './links/idempotency';
export { LinkService, type LinkServiceDeps } from './links/link-service';
export { linkRedirectControls } from './links/redirect-controls';
export { type LinkRoutesDeps, linkRoutes } from './links/routes';
export { PremiumPurchaseService } from './marketplace/premium-purchase-service';
export { PremiumSlugService, type PremiumSlugServiceDeps } from './marketplace/premium-slug-service';
export { marketplaceRoutes, premiumSlugAdminRoutes } from './marketplace/routes';
export {
  fixedSettings,
  LiveSettings,
  type LiveSettingsDeps,
  linkLimitsOf,
  type Settings,
} from './shared/settings';
export { supportAdminRoutes } from './support/admin';
export { closeResolvedTickets, type TicketSweepDeps } from './support/auto-close';
export { SupportMail, type SupportMailDeps } from './support/notifications';
export { type SupportRoutesDeps, supportRoutes } from './support/routes';
export { SupportService, type SupportServiceDeps } from './support/support-service';
export { UrgentTicketDigest } from './support/urgent-digest';
export type { PageSeoSource } from './web';
