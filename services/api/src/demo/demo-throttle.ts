import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type RateLimiters, take } from '../http/rate-limiter';

export interface DemoLimits {
  /** Demo links one visitor may make per 24 h. */
  perVisitor: number;
  /** Demo links one client address may make per 24 h (dropping the cookie does not make a new address). */
  perIp: number;
  /** Demo requests (shorten and list) per client address per minute. */
  requestsPerMinute: number;
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The demo's limits, counted in PostgreSQL like the sign-in throttle (every process shares the counts).
 * The windows are fixed: they start with the first counted call and last their duration.
 */
export class DemoThrottle {
  private readonly requests: RateLimiterAbstract;
  private readonly visitorLinks: RateLimiterAbstract;
  private readonly ipLinks: RateLimiterAbstract;

  constructor(deps: { limiters: RateLimiters }, limits: DemoLimits) {
    this.requests = deps.limiters({
      keyPrefix: 'demo_requests',
      points: limits.requestsPerMinute,
      durationSeconds: 60,
    });
    this.visitorLinks = deps.limiters({
      keyPrefix: 'demo_visitor',
      points: limits.perVisitor,
      durationSeconds: DAY_SECONDS,
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
    await take(this.visitorLinks, visitorId, message);
    try {
      await take(this.ipLinks, ip, message);
    } catch (error) {
      await this.visitorLinks.reward(visitorId);
      throw error;
    }
    try {
      return await create();
    } catch (error) {
      await Promise.all([this.visitorLinks.reward(visitorId), this.ipLinks.reward(ip)]);
      throw error;
    }
  }
}
