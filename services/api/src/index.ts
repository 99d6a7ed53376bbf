export { type AppDeps, buildApp } from './app';
export { type AccountDeps, AccountService, type ReadModelWaiter, toUserJson } from './auth/accounts';
export { LoginThrottle } from './auth/login-throttle';
export {
  releaseOrphanedEmailClaims,
  runAccountMaintenance,
  shredKeysOfErasedUsers,
} from './auth/maintenance';
export { createOidcLogin, OIDC_CALLBACK_PATH, type OidcLoginDeps } from './auth/oidc';
export type { AuthRoutesDeps } from './auth/routes';
export { SessionStore } from './auth/sessions';
export { type SignupLimits, SignupThrottle } from './auth/signup-throttle';
export { DemoService, type DemoServiceDeps } from './demo/demo-service';
export { type DemoLimits, DemoThrottle } from './demo/demo-throttle';
export { claimDemoLinksOnSignIn, type DemoRoutesDeps } from './demo/routes';
export { type CheckResult, checkReadiness, type Readiness, type ReadinessCheck } from './health/readiness';
export { postgresRateLimiters, type RateLimiters } from './http/rate-limiter';
export type { AnalyticsRoutesDeps } from './links/analytics-routes';
export { CodeChangeThrottle } from './links/code-change-throttle';
export { pruneIdempotencyKeys } from './links/idempotency';
export { LinkService, type LinkServiceDeps } from './links/link-service';
export type { LinkRoutesDeps } from './links/routes';
