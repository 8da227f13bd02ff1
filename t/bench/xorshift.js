// xorshift.js: the xorshift32 generator of the bench's input generators,
// so that one seed makes the same inputs in each. require('./xorshift')(SEED)
// gives rand(n), a whole number from 0 to n - 1; a seed that is missing or
// 0 is 1.
'use strict';
module.exports = function xorshift(seed) {
  let state = Number(seed || 1) >>> 0 || 1;
  return function rand(n) {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
};
