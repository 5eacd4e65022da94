import { redactUrl } from './redact';

describe('redactUrl', () => {
  it('hides the password of a broker or database URL, and keeps the rest', () => {
    expect(redactUrl('mqtt://daq:W-f-F8GC_secret@127.0.0.1:1894')).toBe('mqtt://daq:***@127.0.0.1:1894');
    expect(redactUrl('postgres://app:pw@db:5432/furnace')).toBe('postgres://app:***@db:5432/furnace');
    expect(redactUrl('mqtt://127.0.0.1:1883')).toBe('mqtt://127.0.0.1:1883');
  });
  it('prints nothing of what it cannot parse', () => {
    expect(redactUrl('not a url with a p4ssword')).toBe('***');
  });
});
