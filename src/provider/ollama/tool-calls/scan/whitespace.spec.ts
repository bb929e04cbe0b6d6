import { isSpaceCode } from './whitespace';

describe('isSpaceCode', () => {
  it('agrees with /\\s/ on every UTF-16 code unit', () => {
    const disagreements: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isSpaceCode(c) !== /\s/.test(String.fromCharCode(c))) disagreements.push(c);
    expect(disagreements).toEqual([]);
  });
});
