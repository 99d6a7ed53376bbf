export { type AppDeps, buildApp } from './app';
export { type CheckResult, checkReadiness, type Readiness, type ReadinessCheck } from './health/readiness';
