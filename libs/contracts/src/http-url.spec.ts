import { isHttpUrl, parseHttpUrl } from './http-url';

describe('isHttpUrl', () => {
  it('accepts absolute http(s) URLs only', () => {
    expect(isHttpUrl('https://example.com')).toBe(true);
    expect(isHttpUrl('HTTP://example.com/a?b=c')).toBe(true);
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpUrl('mailto:lab@example.com')).toBe(false);
    expect(isHttpUrl('example.com')).toBe(false);
    expect(isHttpUrl('https://exa mple.com')).toBe(false);
  });
});

describe('parseHttpUrl', () => {
  it('gives the URL of a link with spaces around it, and null for forms the URL parser would repair', () => {
    expect(parseHttpUrl('  https://cam.lab.pl:8443/view?x=1 ')?.href).toBe('https://cam.lab.pl:8443/view?x=1');
    expect(parseHttpUrl('http:example.com')).toBeNull();
    expect(parseHttpUrl('https://')).toBeNull();
  });
});
