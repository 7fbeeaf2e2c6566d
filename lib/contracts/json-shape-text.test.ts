import { describe, expect, it } from 'vitest';
import { BRIDGE_MESSAGE_SHAPE_LIMITS, jsonShapeProblem, parseBoundedJson, textShapeProblem } from './json-shape';

const limits = { maxDepth: 4, maxNodes: 12 };

describe('[R12.18] a bridge message refused from its text, before it is parsed', () => {
  it.each([
    '{}',
    '[]',
    '"[[[[[[{{{{"',
    '"a \\" [[[[[[ \\\\"',
    '[1,2,3]',
    '{"a":[1,{"b":[2,3]}],"c":"x,y,z"}',
    '[[[[1]]]]',
    '[[[[[1]]]]]',
    '[0,0,0,0,0,0,0,0,0,0,0]',
    '[0,0,0,0,0,0,0,0,0,0,0,0]',
    '{"a":{},"b":[],"c":[[]],"d":{"e":null}}',
    ' [ 1 , [ 2 , 3 ] , { "k" : [ ] } ] ',
  ])('[R12.18] %s: the same verdict as once parsed', (text) => {
    expect(textShapeProblem(text, limits)).toBe(jsonShapeProblem(JSON.parse(text), limits));
  });

  it('[R12.18] a line nested a million deep is refused without building it: no time, no memory', () => {
    const deep = `{"type":"event","data":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`;
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    expect(parseBoundedJson(deep)).toEqual({ ok: false, problem: 'nests deeper than 32 levels' });
    expect(performance.now() - started).toBeLessThan(200);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 2 ** 20);
  });

  it('[R12.18] too many values are counted from the text too; what fits still parses', () => {
    const wide = `[${Array.from({ length: BRIDGE_MESSAGE_SHAPE_LIMITS.maxNodes }, () => '0').join(',')}]`;
    expect(parseBoundedJson(wide)).toEqual({ ok: false, problem: 'holds more than 500000 values' });
    expect(parseBoundedJson('{"a":[1,{"b":"[{"}]}')).toEqual({ ok: true, value: { a: [1, { b: '[{' }] } });
    expect(parseBoundedJson('{"a":')).toEqual({ ok: false, problem: 'is not JSON' });
  });
});
