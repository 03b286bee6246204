// Issue 41 §4: an SMS's length as the networks count it (GSM-7 or UCS-2 segments), and a message fitted within two.
import { describe, expect, it } from 'vitest';
import { MAX_SMS_SEGMENTS, fitSms, plainSms, smsLength } from '../../src/domain/sms';

describe('the segments of a text', () => {
  it('are 160 GSM characters in one, then 153 each', () => {
    expect(smsLength('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsLength('a'.repeat(306)).segments).toBe(2);
    expect(smsLength('a'.repeat(307)).segments).toBe(3);
    expect(smsLength('').segments).toBe(1);
  });

  it("count the extension table's characters twice, and take £, é and a new line as one", () => {
    expect(smsLength('€[]').units).toBe(6);
    expect(smsLength(`${'a'.repeat(158)}€`)).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength(`${'a'.repeat(159)}€`).segments).toBe(2);
    expect(smsLength('£5 é\nà').encoding).toBe('GSM-7');
  });

  it('are 70 UCS-2 units in one, then 67 each, once any character is outside the GSM alphabet', () => {
    expect(smsLength(`${'a'.repeat(69)}’`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsLength(`${'a'.repeat(70)}’`).segments).toBe(2);
    expect(smsLength('a'.repeat(134) + '’').segments).toBe(3);
    // An emoji is two UTF-16 units.
    expect(smsLength('🚕').units).toBe(2);
  });
});

describe('a text fitted to two segments', () => {
  it('makes curly quotes, dashes, ellipses and arrows plain, so they do not make it UCS-2', () => {
    expect(plainSms('It’s “here” – now… A → B')).toBe('It\'s "here" - now... A -> B');
    expect(smsLength(plainSms('It’s here → now')).encoding).toBe('GSM-7');
  });

  it('is left whole when it fits, and otherwise cuts only the part that may be shortened', () => {
    expect(fitSms({ before: 'New job BK-1: ', shortenable: 'Heathrow T5 -> Canary Wharf', after: ' /driver' })).toBe('New job BK-1: Heathrow T5 -> Canary Wharf /driver');
    const long = fitSms({ before: 'New job BK-1: ', shortenable: 'x'.repeat(400), after: ' https://example.co.uk/driver' });
    expect(smsLength(long).segments).toBe(MAX_SMS_SEGMENTS);
    expect(long.startsWith('New job BK-1: xxx')).toBe(true);
    expect(long.endsWith('x... https://example.co.uk/driver')).toBe(true);
    expect(smsLength(`${long}x`).segments).toBe(3);
  });

  it('makes each of the characters people type plain: non-breaking space, dashes, arrow', () => {
    expect(plainSms('a\u00A0b\u2014c\u2013d\u2192e\u2018f\u201Cg')).toBe("a b-c-d->e'f\"g");
  });

  it('drops the shortenable part whole when even its ellipsis does not fit', () => {
    expect(fitSms({ before: 'a'.repeat(304), shortenable: 'xyz', after: '' })).toBe('a'.repeat(304));
    expect(fitSms({ before: 'a'.repeat(300), shortenable: 'xyzxyzxyz', after: '' })).toBe(`${'a'.repeat(300)}xyz...`);
    expect(fitSms({ before: 'a', shortenable: 'b', after: 'c' }, 1)).toBe('abc');
  });

  it('refuses when what may not be cut is already too long', () => {
    expect(() => fitSms({ before: 'a'.repeat(310), shortenable: 'b', after: '' })).toThrow(/more than 2 segments/);
  });
});
