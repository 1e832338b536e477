import { describe, expect, it } from 'vitest';
import { checkEgressUrl, EgressRefused, nonPublicRange, parseEgressUrl } from './egress.ts';

const strict = { allowPrivate: false };

async function reason(url: string): Promise<string | null> {
  try {
    await checkEgressUrl(url, strict);
    return null;
  } catch (e) {
    if (e instanceof EgressRefused) return e.reason;
    throw e;
  }
}

describe('egress guard', () => {
  it('classifies addresses: only public unicast passes (IPv4-mapped IPv6 judged as IPv4)', () => {
    expect(nonPublicRange('93.184.215.14')).toBeNull();
    expect(nonPublicRange('2606:4700::1111')).toBeNull();
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '224.0.0.1',
      '::1', '::', 'fe80::1', 'fd12::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::', 'ff02::1']) {
      expect(nonPublicRange(a), a).not.toBeNull();
    }
    expect(nonPublicRange('not-an-ip')).toBe('invalid');
  });

  it('refuses IP literals in every spelling the URL parser normalises to a private address', async () => {
    for (const u of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://127.1/', 'http://[::ffff:7f00:1]/', 'https://[fe80::1%25eth0]/', 'http://[::]/']) {
      expect(await reason(u), u).toMatch(/private_address|invalid_url/);
    }
    expect(await reason('https://93.184.215.14/hook')).toBeNull();
  });

  it('refuses shapes: scheme, credentials, no URL, too long', () => {
    expect(() => parseEgressUrl('gopher://x/')).toThrow(/Scheme gopher:/);
    expect(() => parseEgressUrl('javascript:alert(1)')).toThrow(EgressRefused);
    expect(() => parseEgressUrl('https://a:b@example.com/')).toThrow(/credentials/);
    expect(() => parseEgressUrl('https://user@example.com/')).toThrow(/credentials/);
    expect(() => parseEgressUrl('/relative')).toThrow(/Not a URL/);
    expect(() => parseEgressUrl(`https://example.com/${'a'.repeat(2100)}`)).toThrow(/2048/);
    expect(parseEgressUrl('https://example.com/hook?x=1').hostname).toBe('example.com');
  });

  it('allowPrivate lets private addresses through but not bad shapes', async () => {
    await expect(checkEgressUrl('http://127.0.0.1:9/', { allowPrivate: true })).resolves.toBeInstanceOf(URL);
    await expect(checkEgressUrl('ftp://127.0.0.1/', { allowPrivate: true })).rejects.toThrow(EgressRefused);
  });

  it('a name resolving to loopback is refused, naming the address', async () => {
    await expect(checkEgressUrl('http://localhost:1/', strict)).rejects.toThrow(/localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
  });
});
