import { RateLimitedError } from '@sniplink/domain';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type RateLimiters, take } from '../http/rate-limiter';
import type { Settings } from '../shared/settings';

export interface DemoLimits {
  /**
   * Demo links one visitor may make per 24 h: the default of the admin's setting `demo.links_per_visitor`,
   * which the throttle reads on every call.
   */
  perVisitor: number;
  /** Demo links one client address may make per 24 h (dropping the cookie does not make a new address). */
  perIp: number;
  /** Demo requests (shorten and list) per client address per minute. */
  requestsPerMinute: number;
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The demo's limits, counted in PostgreSQL like the sign-in throttle (every process shares the counts).
 * The windows are fixed: they start with the first counted call and last their duration. The limit per
 * visitor is the admin's setting in force at each call: the counts stay, only the limit they are held
 * against changes (a counter of one key prefix is the same row whatever limit a limiter holds it to).
 */
export class DemoThrottle {
  private readonly requests: RateLimiterAbstract;
  /** One limiter per limit per visitor met so far (a setting takes few values). */
  private readonly visitorLimiters = new Map<number, RateLimiterAbstract>();
  private readonly ipLinks: RateLimiterAbstract;

  constructor(
    private readonly deps: { limiters: RateLimiters; settings: Settings },
    limits: Omit<DemoLimits, 'perVisitor'>,
  ) {
    this.requests = deps.limiters({
      keyPrefix: 'demo_requests',
      points: limits.requestsPerMinute,
      durationSeconds: 60,
    });
    this.ipLinks = deps.limiters({
      keyPrefix: 'demo_ip',
      points: limits.perIp,
      durationSeconds: DAY_SECONDS,
    });
  }

  /** Counts one demo request from the address; 429 past the per-minute limit. */
  async countRequest(ip: string): Promise<void> {
    await take(this.requests, ip, 'Too many demo requests; please wait a minute and try again');
  }

  /**
   * Counts one demo link against the visitor and the address, then makes it. A refused or failed create
   * (a bad URL, say) gives both counts back, so only links that exist use up the allowance.
   */
  async countLink<T>(visitorId: string, ip: string, create: () => Promise<T>): Promise<T> {
    const message = "You've reached the demo limit; sign up free to create more links";
    const visitorLinks = this.visitorLinks();
    try {
      await take(visitorLinks, visitorId, message);
    } catch (error) {
      // A refusal is not a link either: the count stays at the links made, so a raised limit applies at once.
      if (error instanceof RateLimitedError) await visitorLinks.reward(visitorId);
      throw error;
    }
    try {
      await take(this.ipLinks, ip, message);
    } catch (error) {
      await visitorLinks.reward(visitorId);
      throw error;
    }
    try {
      return await create();
    } catch (error) {
      await Promise.all([visitorLinks.reward(visitorId), this.ipLinks.reward(ip)]);
      throw error;
    }
  }

  private visitorLinks(): RateLimiterAbstract {
    const points = this.deps.settings.current().demoLinksPerVisitor;
    let limiter = this.visitorLimiters.get(points);
    if (!limiter) {
      limiter = this.deps.limiters({ keyPrefix: 'demo_visitor', points, durationSeconds: DAY_SECONDS });
      this.visitorLimiters.set(points, limiter);
    }
    return limiter;
  }
}
