import { toEmbed } from './embed-url';

const ID = 'dQw4w9WgXcQ';
const EMBED = { kind: 'iframe', src: `https://www.youtube.com/embed/${ID}?autoplay=1&mute=1` };

describe('toEmbed', () => {
  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://youtube.com/watch?v=${ID}&t=42s`,
    `https://www.youtube.com/watch?feature=shared&v=${ID}&list=PL123`,
    `https://m.youtube.com/watch?v=${ID}`,
    `http://www.youtube.com/watch?v=${ID}`,
    `https://youtu.be/${ID}?si=AbCdEfGh12345678`,
    `https://youtu.be/${ID}`,
    `https://www.youtube.com/live/${ID}?si=xyz`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube.com/embed/${ID}?autoplay=0&controls=0`,
    `  https://WWW.YOUTUBE.COM/watch?v=${ID}  `,
  ])('turns the YouTube link %s into the autoplaying embed player', (link) => {
    expect(toEmbed(link)).toEqual(EMBED);
  });

  it('keeps ids with - and _ and refuses ids of the wrong length', () => {
    expect(toEmbed('https://youtu.be/a-b_C1d2E3f')).toEqual({
      kind: 'iframe',
      src: 'https://www.youtube.com/embed/a-b_C1d2E3f?autoplay=1&mute=1',
    });
    // Not a video link: no embed player, the link is framed as it is.
    expect(toEmbed('https://www.youtube.com/watch?v=short')).toEqual({
      kind: 'iframe',
      src: 'https://www.youtube.com/watch?v=short',
    });
    expect(toEmbed(`https://www.youtube.com/embed/${ID}"><script>`).kind).toBe('iframe');
    expect(toEmbed(`https://www.youtube.com/embed/${ID}"><script>`)).not.toEqual(EMBED);
  });

  it('does not treat look-alike hosts as YouTube', () => {
    expect(toEmbed(`https://youtube.com.evil.example/watch?v=${ID}`)).toEqual({
      kind: 'iframe',
      src: `https://youtube.com.evil.example/watch?v=${ID}`,
    });
  });

  it.each([
    ['https://cdn.example.com/live/furnace-1/index.m3u8', 'https://cdn.example.com/live/furnace-1/index.m3u8'],
    ['https://cam.lab.pl:8443/hls/stream.m3u8?token=abc&x=1', 'https://cam.lab.pl:8443/hls/stream.m3u8?token=abc&x=1'],
    ['https://192.168.1.20/stream/PLAYLIST.M3U8', 'https://192.168.1.20/stream/PLAYLIST.M3U8'],
  ])('plays the HLS playlist %s with hls.js', (link, src) => {
    expect(toEmbed(link)).toEqual({ kind: 'hls', src });
  });

  it.each([
    'https://cam.lab.pl/view.html?camera=2',
    'https://192.168.1.20:8443/',
    'https://vimeo.com/event/12345/embed',
    'https://example.com/playlist.m3u8.html',
  ])('frames any other https link as it is: %s', (link) => {
    expect(toEmbed(link)).toEqual({ kind: 'iframe', src: link });
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(document.cookie)//https://youtu.be/dQw4w9WgXcQ',
    'data:text/html,<script>alert(1)</script>',
    'ftp://files.example.com/stream.m3u8',
    'file:///etc/passwd',
    'www.youtube.com/watch?v=dQw4w9WgXcQ',
    '//youtu.be/dQw4w9WgXcQ',
    'http:example.com',
    // Plain http: the page's CSP allows https: frames and media only.
    'http://192.168.1.20:8080/',
    'http://192.168.1.20/stream/PLAYLIST.M3U8',
    'HTTP://cam.lab.pl/view.html',
    'https://',
    'not a link',
    '',
  ])('refuses %j', (link) => {
    expect(toEmbed(link)).toEqual({ kind: 'invalid' });
  });
});
