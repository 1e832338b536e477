// Outbound HTTP to addresses a user chose (webhook endpoints): refused when they reach this
// machine or a private network (SSRF), unless the operator allows it. Checked when a URL is
// registered (a clear error at once) and again at every connection through `guardedLookup`, so a
// name that later resolves elsewhere (DNS rebinding) is still refused.
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { bool } from './env.ts';

/** Why an outbound URL is refused; `reason` is stable, `message` says what to do. */
export class EgressRefused extends Error {
  override readonly name = 'EgressRefused';
  readonly reason: 'invalid_url' | 'scheme' | 'credentials' | 'private_address' | 'unresolvable';
  constructor(reason: EgressRefused['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface EgressPolicy {
  /** Allow loopback, private, link-local and other non-public addresses (tests, a trusted network). */
  allowPrivate: boolean;
}

/** The address's ipaddr.js range when it is not public unicast, else null (IPv4-mapped IPv6 judged as IPv4). */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

/** The URL as it will be called, or EgressRefused for its shape (scheme, credentials, length). */
export function parseEgressUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new EgressRefused('invalid_url', 'Not a URL; send an absolute http:// or https:// URL.');
  }
  if (raw.length > 2048) throw new EgressRefused('invalid_url', 'The URL is longer than 2048 characters.');
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new EgressRefused('scheme', `Scheme ${u.protocol} is not allowed; use https:// (or http://).`);
  if (u.username !== '' || u.password !== '') throw new EgressRefused('credentials', 'The URL carries credentials; endpoints authenticate deliveries by their signature, not by a password in the URL.');
  if (u.hostname === '') throw new EgressRefused('invalid_url', 'The URL has no host.');
  return u;
}

const bare = (hostname: string): string => hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

function refusePrivate(host: string, address: string): void {
  const range = nonPublicRange(address);
  if (range !== null) {
    throw new EgressRefused('private_address', `${host === address ? address : `${host} resolves to ${address}, which`} is a ${range} address; endpoints must be public. An operator can allow private addresses with WEFT_WEBHOOK_ALLOW_PRIVATE=1.`);
  }
}

/** Checks the URL's shape and every address its host resolves to now. Resolves to the parsed URL. */
export async function checkEgressUrl(raw: string, policy: EgressPolicy): Promise<URL> {
  const u = parseEgressUrl(raw);
  if (policy.allowPrivate) return u;
  const host = bare(u.hostname);
  if (isIP(host) !== 0) {
    refusePrivate(host, host);
    return u;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (e, a) => e ? reject(e) : resolve(a)));
  } catch (e) {
    throw new EgressRefused('unresolvable', `${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'DNS error'}); check the host name.`);
  }
  for (const a of addresses) refusePrivate(host, a.address);
  return u;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request/net.connect that refuses non-public answers (unless allowed): the
 * connection goes only to an address that was checked. IP-literal hosts skip lookup, so callers
 * check those with `checkEgressUrl` first.
 */
export function guardedLookup(policy: EgressPolicy) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!policy.allowPrivate) {
        for (const a of addresses) {
          try {
            refusePrivate(hostname, a.address);
          } catch (e) {
            return callback(e as NodeJS.ErrnoException, []);
          }
        }
      }
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** The egress switch, read by every process that registers or calls user-chosen URLs (docs/config.md). */
export const egressEnv = {
  WEFT_WEBHOOK_ALLOW_PRIVATE: bool('Allow webhook endpoints on loopback, private, link-local and other non-public addresses (tests, a trusted network); off = such URLs are refused when registered and when called', false),
} as const;
