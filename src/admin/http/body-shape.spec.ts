import { InvalidRequestError } from '../../common/request-errors';
import { bodyShapeProblem, bodyShapeVerifier } from './body-shape';

const limits = { maxDepth: 3, maxKeys: 4 };
const shape = (json: string) => bodyShapeProblem(Buffer.from(json), limits);

describe('JSON body shape', () => {
  it('counts nesting and keys outside strings only', () => {
    expect(shape('{"a":{"b":[1,{"c":2}]}}')).toEqual('nests deeper than 3 levels');
    expect(shape('{"a":{"b":[1,2]},"c":[{}]}')).toBeUndefined();
    expect(shape('{"a":1,"b":2,"c":3,"d":4}')).toBeUndefined();
    expect(shape('{"a":1,"b":2,"c":3,"d":4,"e":5}')).toEqual('has more than 4 keys');
    // brackets, colons and escaped quotes inside strings are text
    expect(shape('{"a":"[[[[{{{{::::\\"[[[[","b":"\\\\"}')).toBeUndefined();
    expect(shape('[[["\\\\"],[]]]')).toBeUndefined();
    expect(shape('[[[["\\\\"]]]]')).toEqual('nests deeper than 3 levels');
  });

  it('reads a UTF-16 body by its characters, and refuses what it cannot read as body-parser would', () => {
    const verify = bodyShapeVerifier(limits);
    const utf16 = Buffer.from('{"\u225b":[[["x"]]]}', 'utf16le'); // U+225B holds the byte 0x22 (")
    expect(() => verify(null, null, utf16, 'utf-16le')).toThrow('request body nests deeper than 3 levels');
    expect(() => verify(null, null, Buffer.from('{"a":[]}', 'utf16le'), 'utf-16le')).not.toThrow();
    expect(() => verify(null, null, Buffer.from('{}'), 'utf-32')).toThrow(expect.objectContaining({ type: 'charset.unsupported' }));
  });

  it('answers as bad input naming the body', () => {
    let thrown: unknown;
    try {
      bodyShapeVerifier(limits)(null, null, Buffer.from('[[[[]]]]'), 'utf-8');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).errors).toEqual([{ field: 'body', message: 'nests deeper than 3 levels' }]);
  });
});
