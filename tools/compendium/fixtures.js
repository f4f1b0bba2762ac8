#!/usr/bin/env node
// Turns record.js's output into the fixtures Tilebox's tests read (tests/fixtures/compendium/):
// one small text file per mode, named by its Tilebox id, holding the mode's start, spawns and win
// and each recorded board with what every direction makes of it, as tile values.
//
//   node tools/compendium/fixtures.js /tmp/compendium-out tests/fixtures/compendium 2,4,30
//
// The third argument lists the modes by number (compendium.md's `#` column); without it every
// recorded mode is written. The text form is described in tools/compendium/README.md.

'use strict';

const fs = require('fs');
const path = require('path');

// compendium.md's ids, by the Compendium's mode number.
const IDS = {
  1: '2048-pc', 2: '2187', 3: '1024', 4: '3125', 5: '1296', 6: '2401', 7: '4096', 8: '6561',
  9: '1000', 10: '1331', 11: '1728', 12: '2047', 13: '2186', 14: '2049', 15: '5040', 16: '2197',
  17: '3375', 18: '4913', 19: '8000', 20: '9261', 21: '625', 22: '900', 23: '2059', 24: '2315',
  25: 'xxxx', 26: '2584', 27: '2745', 28: '1705', 46: '2378', 52: '2583', 33: 'harder-3125',
  76: 'easier-2401', 63: 'harder-3375', 53: '2131', 30: '3072', 64: 'interleaved-3125',
  65: 'interleaved-3375', 66: 'interleaved-5832', 32: 'bicolor-2187', 42: 'bicolor-2584',
  29: '1535-1536-1537', 47: '1093-1094', 51: '1365-1366', 48: '2310', 87: '3120',
  83: 'ratio-fill-1296', 84: 'ratio-fill-1024', 90: 'ratio-fill-3375', 94: 'ratio-fill-9261',
  38: '180', 54: '3888', 55: '2000', 56: '3645', 57: '2700', 68: '2205', 67: '1762', 77: '1668',
  78: '1847', 80: '1429', 86: 'bitwise-2048', 89: '2496', 72: '3026', 61: '3069', 79: '3240',
  91: '1845', 73: 'squart', 88: 'factup', 93: 'trigat', 95: '3385', 75: '3307', 85: '2669',
  96: 'locef', 92: 'scaprim', 58: '10', 41: 'xy', 31: 'isotopic-256', 49: '378', 81: '2058',
  82: '1716', 40: '2-4-8-wildcard-2048', 43: '1321', 59: '1825', 70: '16-16i', 69: '232-240',
  97: 'pro-add-uct', 34: 'partial-absorb-243', 98: 'partial-absorb-377',
  35: 'partial-absorb-257', 36: 'partial-absorb-270', 62: 'partial-absorb-361',
  37: '2216-838', 71: '3-188-646', 39: '2592', 60: '2295', 99: 'four-sides-625',
  45: 'directional-merges', 74: 'turatin', 50: 'dive', 44: 'mod-27', 100: 'alternate-5040',
};

/** A board's values as one field: rows joined by `/`, cells by `,`, `.` for an empty cell. */
function board(values) {
  return values.map((row) => row.map((v) => (v === null ? '.' : v)).join(',')).join('/');
}

/** (1 + i)^k · i^u written as Tilebox's labels write a Gaussian integer: `1`, `-i`, `-2+2i`. */
function gaussian(k, u) {
  let [a, b] = [1, 0];
  for (let j = 0; j < k; j++) [a, b] = [a - b, a + b];
  for (let j = 0; j < u; j++) [a, b] = [-b, a];
  if (b === 0) return `${a}`;
  const bi = b === 1 ? 'i' : b === -1 ? '-i' : `${b}i`;
  if (a === 0) return bi;
  return `${a}${b > 0 ? '+' : ''}${bi}`;
}

/** The Fibonacci number F(n), F(1) = F(2) = 1. */
function fibonacci(n) {
  let [a, b] = [0, 1];
  for (let j = 0; j < n; j++) [a, b] = [b, a + b];
  return a;
}

/** A tile value as its label shows it: exact in 7 characters or fewer, else to 2 decimals. */
function decimal(x) {
  const exact = String(x);
  if (exact.length <= 7) return exact;
  return (Math.floor(x * 100 + 0.5) / 100).toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
}

/** 3240's label of a tile [a, b, c, d, e, f]: its worth, and its factors if two or more. */
function factors3240(t) {
  if (t[0] === 0.5) return '2';
  const bases = [4, 6, 9, 10, 14, 15];
  const sup = ['', '', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
  const worth = bases.reduce((w, b, i) => w * b ** t[i], 1);
  if (t.reduce((n, e) => n + e, 0) <= 1) return `${worth}`;
  const parts = bases.flatMap((b, i) => (t[i] > 0 ? [`${b}${sup[t[i]]}`] : []));
  return `${worth}(${parts.join('·')})`;
}

/** A tile's fields as numbers: big integers are written "@BigInt n". */
function numbers(t) {
  return t.map((v) => Number(String(v).replace('@BigInt ', '')));
}

/** 2669's label of a tile [v, p, q, s]: v(p+q), with a * after q when s is 2 (it took q twice
 * running, and takes no third). */
function label2669(t) {
  const [v, p, q, s] = numbers(t);
  return `${v}(${p}+${q}${s >= 2 ? '*' : ''})`;
}

/** 2669's tiles of worth `worth`: every record (v, p, q, s) its rules make from its spawns, as
 * tests/compendium_generated.rs lists them (a tile takes a tile worth its q while s < 2, or one
 * worth its p). */
function tiles2669(worth) {
  const key = (t) => t.join(',');
  const all = new Map([[1, 1, 0, 1], [2, 1, 1, 1], [3, 2, 1, 2]].map((t) => [key(t), t]));
  for (;;) {
    const values = new Set([...all.values()].map((t) => t[0]));
    const found = [];
    for (const [v, p, q, s] of all.values()) {
      if (s < 2 && values.has(q) && v + q <= worth) found.push([v + q, v, q, s + 1]);
      if (values.has(p) && v + p <= worth) found.push([v + p, v, p, 1]);
    }
    const fresh = found.filter((t) => !all.has(key(t)));
    if (fresh.length === 0) break;
    for (const t of fresh) all.set(key(t), t);
  }
  return [...all.values()].filter((t) => t[0] === worth);
}

// The modes whose win the engine writes as a condition on a tile's worth, not as tiles: the
// tiles that meet it, as labelled. 3240's four tiles worth 3240, in the order of their factors.
const WINS = {
  // (232, 240): the engine also wins on (-232, -240), which no tile reaches (the spawns are
  // (1, 0), (0, 1) and (1, 1), and merges add them).
  69: () => ['(232|240)'],
  // 1321: a 1321, plain or +.
  43: () => ['1321', '+1321'],
  // 2669: every tile worth 2669.
  85: () => tiles2669(2669).map(label2669),
  // Isotopic 256: any tile of exponent 8, 256 (stable, as every even power).
  31: () => ['256'],
  79: () => [[0, 2, 1, 1, 0, 0], [0, 3, 0, 0, 0, 1], [1, 0, 2, 1, 0, 0], [1, 1, 1, 0, 0, 1]]
    .map(factors3240),
};

// The modes whose tiles Tilebox shows by a label (format 2's `labels`): the label of each of
// the engine's tiles, which the fixture then holds in place of its value (values repeat: red
// and blue 3s, 3 and -3).
const LABELS = {
  // 2049: [k] is 2^k + 1, [-1] is 1 and [-2] is -1.
  14: ([k]) => (k === -2 ? '-1' : k === -1 ? '1' : `${2 ** k + 1}`),
  // 10: [n, sign].
  58: ([n, sign]) => (sign > 0 ? `${n}` : `-${n}`),
  // 16+16i: [k, u] is (1 + i)^k · i^u.
  70: ([k, u]) => gaussian(k, u),
  // Bicolor 2187: [0, 1] is 1, [k, 2] is 2·3^k, [k, 1] a red and [k, -1] a blue 3^k.
  32: ([k, c]) => (c === 2 ? `${2 * 3 ** k}` : k === 0 ? '1' : `${3 ** k}${c > 0 ? 'r' : 'b'}`),
  // 2216.838: ["Div2", …] is the ÷2 tile, [k, 1] is 1.5^k and [k, 2] its half, written
  // exactly when that takes 7 characters or fewer, else to 2 decimals, half up (2216.84).
  37: (t) => (t[0] === 'Div2' ? '÷2' : decimal(1.5 ** t[0] / t[1])),
  // 1716: [a, b, v] is the place (a, b) of Pascal's triangle, worth v; [1, 1, 1] is 1.
  82: ([a, b, v]) => (a === 1 && b === 1 ? '1' : `${v}(${a}|${b})`),
  // Bicolor 2584: [0, 0] is 1, [1, 0] is 2, [k, -1] a cyan and [k, 1] a yellow F(k + 2).
  42: ([k, c]) => (c === 0 ? `${fibonacci(k + 2)}` : `${fibonacci(k + 2)}${c > 0 ? 'y' : 'c'}`),
  // 3,188,646: ["Multiply", …] is the × tile, [k, 2] is 2·3^k and [k, 4] is 4·3^k.
  71: (t) => (t[0] === 'Multiply' ? '×' : `${t[1] * 3 ** t[0]}`),
  // 3240: [a, b, c, d, e, f] is 4^a·6^b·9^c·10^d·14^e·15^f, shown with its factors when
  // there are two or more; [0.5, 0, …] is the 2.
  79: (t) => factors3240(t),
  // 2496: [a, b], a ≤ b, big integers written "@BigInt a", is a×b shown under its worth.
  // (232, 240): the pair [x, y] is the record (x|y).
  69: (t) => {
    const [x, y] = t.map((v) => Number(String(v).replace('@BigInt ', '')));
    return `(${x}|${y})`;
  },
  // 1321: [v, 0] is the plain v, [v, 1] the +v.
  43: ([v, p]) => (p === 1 ? `+${v}` : `${v}`),
  // Pro-Add-Uct: the pair [x, y], big integers, is x×y.
  97: (t) => {
    const [x, y] = numbers(t);
    return `${x}×${y}`;
  },
  // 2669: [v, p, q, s] is v(p+q), or v(p+q*) when s is 2.
  85: label2669,
  89: (t) => {
    const [a, b] = t.map((x) => Number(String(x).replace('@BigInt ', '')));
    return `${a * b}(${a}×${b})`;
  },
};

// The modes whose tiles are more than their worth (records of a level, flags and a worth): the
// label of each of the engine's tiles, as Tilebox's generated file labels it. The fixture keeps
// the worths in its boards and adds each board's tiles as labels (`tiles …`), so that a test can
// tell two tiles of one worth apart (a 12 that took a 6 from a 12 that took a 2 and a 3). Its
// spawn table, win and spawn counts are written as labels.
/** A tile's flags as the digits `first`, `first + 1` … of the flags set, in order. */
function digits(flags, first) {
  return flags.map((f, i) => (f ? `${i + first}` : '')).join('');
}
/** Ratio-Fill's tile [level, flags, worth]: its worth, and the flags set above level 0 (where
 * they are all set) as digits from `first`: `18(12)`. */
function ratioFill(first, flagsAtZero) {
  return ([level, written, worth]) => {
    // A spawn table writes the flags as an expression, `["@Literal", false, …]`.
    const flags = written.filter((f) => f !== '@Literal');
    const w = String(worth).replace('@BigInt ', '');
    const shown = level === 0 && flagsAtZero ? '' : digits(flags, first);
    return shown === '' ? w : `${w}(${shown})`;
  };
}
const IDENTITIES = {
  25: xxxx,
  // Four-Sides 625: [k, [U, D, L, R]] is worth 5^k·(1 + the flags set): `375(UL)`.
  99: ([k, written]) => {
    const flags = written.filter((f) => f !== '@Literal');
    const set = flags.filter(Boolean).length;
    const letters = flags.map((f, i) => (f ? 'UDLR'[i] : '')).join('');
    return set === 0 ? `${5 ** k}` : `${5 ** k * (1 + set)}(${letters})`;
  },
  // Ratio-Fill 1296: flag r − 1 is set when the tile has taken one r-th of itself (r = 1…5).
  83: ratioFill(1, true),
  // Ratio-Fill 1024: flag r − 2 for one r-th (r = 2…7).
  84: ratioFill(2, true),
  // Ratio-Fill 3375: digit d for two tiles that made 2/(2d − 1) of it (d = 1…7).
  90: ratioFill(1, true),
  // Ratio-Fill 9261: digit d for tiles that made 2/d of it (d = 1…5); its 1s start with none.
  94: ratioFill(1, false),
  // Isotopic 256: [e, clock] is 2^e, with the moves it has left in brackets where it decays
  // (`8(5)`); the others' clock is Infinity.
  31: ([e, c]) => (c === '@Infinity' ? `${2 ** e}` : `${2 ** e}(${c})`),
  // 2058: [n, a, b] is n^a·(n + 1)^b, shown with its form: `12(2^2·3^1)`.
  81: ([n, a, b]) => `${n ** a * (n + 1) ** b}(${n}^${a}·${n + 1}^${b})`,
};

// XXXX's tile [k, e], k^e: labelled as Tilebox's generated file labels it (`xxxx()` in
// tests/compendium_generated.rs): 1, the base-k tile k, then `64(2^6)`, or `2^40` where the
// worth and its power would take more than 16 characters.
function xxxx([k, e]) {
  if (typeof k !== 'number' || typeof e !== 'number') return String([k, e]);
  if (e === 0) return '1';
  const w = (BigInt(k) ** BigInt(e)).toString();
  if (e === 1) return w;
  const full = `${w}(${k}^${e})`;
  return [...full].length <= 16 ? full : `${k}^${e}`;
}

/** The exponent of the Compendium's `perfectPowerForm` (line 4386): the largest p with
 * n = r^p, or 1; 0 for 1. */
function powerExponent(n) {
  if (n === 1) return 0;
  for (let p = Math.floor(Math.log2(n)); p > 1; p--) {
    const r = Math.round(n ** (1 / p));
    for (const x of [r - 1, r, r + 1]) if (x >= 2 && x ** p === n) return p;
  }
  return 1;
}

// The modes won by some number of different tiles meeting a condition (the engine's
// `winRequirement` a number above 1, its `winConditions` a condition): the tiles up to a bound
// that meet it, as the fixture names them, so that a test can hold Tilebox's condition to them
// (it must hold of exactly these, up to the bound, which the line gives first).
const DISTINCT = {
  // X^Y: `["@This 1", ">=", 3n]`, a tile [base, exponent] in the engine's perfect power form
  // whose exponent is at least 3; the tiles up to 4096.
  41: () => {
    const tiles = [];
    for (let n = 1; n <= 4096; n++) if (powerExponent(n) >= 3) tiles.push(`${n}`);
    return { bound: '4096', tiles };
  },
  // XXXX: `["@This 0", "^", "@This 1", ">=", 1000]`, a tile worth 1000 or more; the tiles up to
  // 10^6 (its labels), the bound written as the highest tile below it.
  25: () => {
    const places = [];
    for (let k = 2; k <= 6; k++) for (let e = 1; k ** e <= 1e6; e++) places.push([k, e]);
    places.sort((x, y) => x[0] ** x[1] - y[0] ** y[1] || x[0] - y[0]);
    return {
      bound: xxxx(places[places.length - 1]),
      tiles: places.filter(([k, e]) => k ** e >= 1000).map(xxxx),
    };
  },
};

// Wins the engine writes as a condition on a tile's level (Four-Sides 625: any tile of level 4,
// `["@This 0", "=", 4]`): the tiles that meet it, as labelled.
const LEVEL_WINS = {
  99: (level) => {
    const tiles = [];
    for (let m = 0; m < 16; m++) {
      const flags = [0, 1, 2, 3].map((i) => Boolean(m & (1 << i)));
      if (flags.filter(Boolean).length < 4) tiles.push([level, flags]);
    }
    return tiles;
  },
};

// The modes whose rules read the number of moves played (2592's switch on each move, Turatin's
// merge number): each
// board's line ends with ` ; turn N`, the moves its game had played.
const TURNS = new Set([39, 60, 74]);

/** The engine's board `tiles` written with `label`: `.` for an empty cell. */
function labelled(tiles, label) {
  return tiles.map((row) => row.map((t) => (Array.isArray(t) ? label(t) : null)));
}

/** A record's spawn table, win and spawn counts written with `label` in place of values; and
 * its boards too, unless `keepBoards` (the boards' tiles then go beside them, `tiles`). */
function relabel(rec, label, keepBoards) {
  const weights = rec.spawn_table.map(([t, w]) => [label(t), w]);
  // Weights of 2.5 (Bicolor 2187's red and blue 3s) are doubled with the rest: the table's
  // chances are what the fixture holds.
  const scale = weights.every(([, w]) => Number.isInteger(w)) ? 1 : 2;
  return {
    ...rec,
    spawn_values: rec.spawn_table[0][0] === 'Box'
      ? [rec.spawn_table[0].map((e, i) => (i >= 2 && i % 2 === 0 ? label(e) : e))]
      : weights.map(([t, w]) => [t, w * scale]),
    // A condition written as an expression, `["@This 0", "=", k]` (Bicolor 2584), is a tile of
    // level k in either colour.
    // With winning off (Pro-Add-Uct) the engine's unused goal is written as it is, as an
    // unlabelled mode's fixture writes it.
    win_values: rec.win.requirement === false ? rec.win.conditions.map(String)
      : WINS[rec.mode] ? WINS[rec.mode]() : rec.win.conditions.flatMap((c) => {
      if (LEVEL_WINS[rec.mode]) return LEVEL_WINS[rec.mode](c[0][2]).map(label);
      return c[0] === '@This 0' && c[1] === '=' ? [label([c[2], -1]), label([c[2], 1])] : [label(c)];
    }),
    spawned_values: Object.fromEntries(
      Object.entries(rec.spawned).map(([t, n]) => [label(JSON.parse(t)), n]),
    ),
    moves: keepBoards ? rec.moves.map((m) => ({
      ...m,
      tiles: [m.board, ...m.results.map((r) => (r.moved ? r.board : null))]
        .map((b) => (b === null ? '-' : board(labelled(b, label)))),
    })) : rec.moves.map((m) => ({
      ...m,
      values: labelled(m.board, label),
      results: m.results.map((r) => ({ ...r, values: r.moved ? labelled(r.board, label) : r.values })),
    })),
  };
}

function fixture(rec) {
  const lines = [
    `# The 2048 Power Compendium's mode ${rec.mode}, as its own engine plays it: recorded by`,
    '# tools/compendium/record.js and written by tools/compendium/fixtures.js. Do not edit.',
    `id ${IDS[rec.mode]}`,
    `mode ${rec.mode}`,
    `menu ${rec.menu}`,
    `side ${rec.width}x${rec.height}`,
    `start ${rec.start_tiles}`,
    `spawns ${rec.spawns_per_move} ${rec.spawn_location} next ${rec.next_tiles}`,
  ];
  // The spawn table: `weights v:w …`, or `bag <weight> v:n …` for a spawn box, or `other <weight
  // as the engine writes it>` for an entry written as an expression (Threes' bonus).
  for (const e of rec.spawn_values) {
    if (e === null) lines.push('spawn other');
    else if (e[0] === 'Box') {
      const tiles = [];
      for (let i = 2; i < e.length; i += 2) tiles.push(`${e[i]}:${e[i + 1]}`);
      lines.push(`spawn bag ${e[1]} ${tiles.join(' ')}`);
    } else if (typeof e[0] === 'string' && e[0].startsWith('@')) {
      // A tile the engine works out as it spawns (DIVE's seed from its pool, `@GVar 0 …`).
      lines.push(`spawn other ${JSON.stringify(e[0])} ${e[1]}`);
    } else if (typeof e[1] === 'number' && String(e[0]).includes('@')) {
      // A tile written as an expression (Wildcard 2048's 4 %: a mask drawn from a float).
      lines.push(`spawn other draw:${e[1]} ${JSON.stringify(rec.spawn_table[rec.spawn_values.indexOf(e)])}`);
    } else if (typeof e[1] === 'number') lines.push(`spawn weight ${e[0]}:${e[1]}`);
    else lines.push(`spawn other ${JSON.stringify(e[1])}`);
  }
  if (DISTINCT[rec.mode]) {
    const { bound, tiles } = DISTINCT[rec.mode]();
    lines.push(`win ${rec.win.requirement} distinct ${bound} ${tiles.join(' ')}`);
  } else if (Array.isArray(rec.win.requirement)) {
    // A win on the engine's game variables (mod 27's `["@GVar 0", "=", 27]`) is written as
    // JSON after `win when`.
    lines.push(`win when ${JSON.stringify(rec.win.requirement)}`);
  } else lines.push(`win ${rec.win.requirement} ${rec.win_values.join(' ')}`);
  const spawned = Object.entries(rec.spawned_values).map(([v, n]) => `${v}:${n}`);
  lines.push(`spawned ${spawned.join(' ')}`);
  lines.push(`games ${rec.games}`);
  lines.push('# board; then up, down, left, right: the board after the move before its spawn and');
  lines.push('# the score it made, or - for a move that changes nothing');
  // Recordings that hold the engine's game variables (record.js since they were added) give
  // every board its move number and its variables; the older fixtures give the move number
  // only where the mode's rules read it.
  const vars = rec.moves.length > 0 && 'game_vars' in rec.moves[0];
  if (rec.moves.some((m) => m.tiles)) {
    lines.push('# then "tiles": the board and each result as the tiles\' labels, - for no move');
  }
  if (TURNS.has(rec.mode) || vars) lines.push('# then "turn N": the moves the game had played');
  if (vars) {
    lines.push('# then "vars": the engine\'s game variables, as JSON: [before, up, down, left, right],');
    lines.push('# null for a move that changes nothing');
  }
  for (const m of rec.moves) {
    const results = m.results.map((r) => (r.moved ? `${board(r.values)} ${r.gained}` : '-'));
    const tiles = m.tiles ? [`tiles ${m.tiles.join(' ')}`] : [];
    const turn = TURNS.has(rec.mode) || vars ? [`turn ${m.turn}`] : [];
    const gameVars = vars
      ? [`vars ${JSON.stringify([m.game_vars, ...m.results.map((r) => (r.moved ? r.game_vars : null))])}`]
      : [];
    const line = [board(m.values), ...results, ...tiles, ...turn, ...gameVars].join(' ; ');
    if (gameVars.length > 0 && gameVars[0].includes(' ; ')) throw new Error(`mode ${rec.mode}: " ; " in its variables`);
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

function main() {
  const [input, out, modes] = process.argv.slice(2);
  if (!input || !out) {
    process.stderr.write('usage: fixtures.js <record.js output> <fixtures folder> [modes]\n');
    process.exit(2);
  }
  fs.mkdirSync(out, { recursive: true });
  const wanted = modes
    ? modes.split(',').map(Number)
    : fs.readdirSync(input)
      .map((f) => /^mode-(\d+)\.json$/.exec(f))
      .filter(Boolean)
      .map((m) => Number(m[1]));
  for (const mode of wanted) {
    let rec = JSON.parse(fs.readFileSync(path.join(input, `mode-${mode}.json`), 'utf8'));
    if (LABELS[mode]) rec = relabel(rec, LABELS[mode], false);
    if (IDENTITIES[mode]) rec = relabel(rec, IDENTITIES[mode], true);
    const file = path.join(out, `${IDS[mode]}.txt`);
    fs.writeFileSync(file, fixture(rec));
    process.stderr.write(`mode ${mode}: ${file}\n`);
  }
}

main();
