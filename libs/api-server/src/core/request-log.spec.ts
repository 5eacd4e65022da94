import { loggedPath } from './request-log';

describe('loggedPath', () => {
  it("hides a client's e-mail record id (their access code) and keeps every other path as it is", () => {
    const code = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(loggedPath(`/api/v1/research/emails/${code}`)).toBe('/api/v1/research/emails/:id');
    expect(loggedPath(`/api/v1/research/emails/${code}/send`)).toBe('/api/v1/research/emails/:id/send');
    expect(loggedPath(`/api/v1/research/${code}/emails`)).toBe(`/api/v1/research/${code}/emails`);
    expect(loggedPath('/api/v1/research/emails')).toBe('/api/v1/research/emails');
  });
});
