import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { RateLimitedError, ServiceUnavailableError } from '@sniplink/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route streams its body to storage as it arrives (an import's file), holding a piece at a time and
     * bounding its own size: the budget, made for bodies parsed whole, leaves it alone.
     */
    streamsBody?: true;
  }
}

/** The largest JSON body a route takes. The largest real one (a link: a 2,048-character URL and a title) is under 3 KB. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Bytes of bodies still arriving that one client address may have the app hold. */
export const BODY_BYTES_PER_ADDRESS = 1024 * 1024;
/** Bytes of bodies still arriving that all clients together may have the app hold. */
export const BODY_BYTES_IN_ALL = 16 * 1024 * 1024;

/**
 * Bounds the memory that request bodies still arriving hold. node copies every piece of a body it reads
 * into a Buffer of its own, and Fastify's JSON parser keeps them until the body is complete: 1,000 clients
 * that stopped just before the end of a 1 MB body held 1 GB (JSON_BODY_LIMIT caps one body at 64 KB, but
 * not how many arrive at once). So the bytes of bodies not yet complete are counted as they arrive, per
 * client address (`request.ip`, TRUST_PROXY's client) and in all; a body that would take either count past
 * its budget is refused, 429 for the address or 503 for everyone, with `Retry-After`, and its connection
 * closed (as Fastify closes it after any body it cannot take). Bytes count until the answer is sent.
 */
export function limitBodiesInFlight(api: FastifyInstance): void {
  const budget = new BodyBudget();
  api.addHook('preParsing', (request, reply, payload, done) => {
    const headers = request.headers;
    const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0;
    if (!hasBody || request.routeOptions.config.streamsBody) return done(null, payload);
    done(null, counted(request.raw, reply, budget, request.ip));
  });
}

class BodyBudget {
  private inAll = 0;
  private readonly byAddress = new Map<string, number>();

  /** Takes `bytes` for `address`, or says which budget has no room for them. */
  take(address: string, bytes: number): 'address' | 'all' | undefined {
    const ofAddress = this.byAddress.get(address) ?? 0;
    if (ofAddress + bytes > BODY_BYTES_PER_ADDRESS) return 'address';
    if (this.inAll + bytes > BODY_BYTES_IN_ALL) return 'all';
    this.byAddress.set(address, ofAddress + bytes);
    this.inAll += bytes;
    return undefined;
  }

  give(address: string, bytes: number): void {
    if (bytes === 0) return;
    const left = (this.byAddress.get(address) ?? 0) - bytes;
    if (left > 0) this.byAddress.set(address, left);
    else this.byAddress.delete(address);
    this.inAll -= bytes;
  }
}

/** The body as Fastify's parser reads it, each piece counted against the budget until the answer is sent. */
function counted(raw: IncomingMessage, reply: FastifyReply, budget: BodyBudget, address: string): Transform {
  let held = 0;
  let answered = false;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (answered) return callback();
      const full = budget.take(address, chunk.length);
      if (full) return callback(refusal(full, reply));
      held += chunk.length;
      callback(null, chunk);
    },
  });
  raw.pipe(body);
  // A client that goes away mid-body: the parser hears of it as it would from node's request.
  raw.once('error', (error) => body.destroy(error));
  reply.raw.once('close', () => {
    answered = true;
    budget.give(address, held);
    held = 0;
    // Answered before the body was all read (a refusal, a client gone): nothing more is kept.
    if (!raw.complete) {
      raw.unpipe(body);
      raw.resume();
    }
  });
  return body;
}

function refusal(full: 'address' | 'all', reply: FastifyReply): Error {
  if (full === 'address') {
    return new RateLimitedError(
      'Too many requests from this address are still sending; try again shortly',
      1,
    );
  }
  reply.header('retry-after', '1');
  return new ServiceUnavailableError('The service is busy; please try again');
}
