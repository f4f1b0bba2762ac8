#!/usr/bin/env node
// Records what the 2048 Power Compendium's own engine does, mode by mode, so that Tilebox's
// tests can compare its variants against it without Node. Run by hand, never by CI:
//
//   node tools/compendium/record.js <compendium checkout> <output dir> [--modes 1,2,3|all]
//        [--boards 1000] [--seed 1] [--turns N]
//
// <compendium checkout> is a copy of MathCookie17/The-2048-Power-Compendium (MIT licence). This
// script loads its files from there at run time and copies none of its code: it runs the
// engine's own `loadMode`, `startGame` and `MoveHandler` in a Node `vm` context with a stand-in
// for the browser (a `document` on which every element exists and does nothing, the drawing
// functions made no-ops) and a seeded `Math.random`, so the same arguments give the same output.
//
// For each mode it writes `<output dir>/mode-<N>.json` (N the Compendium's mode number) with:
// - `mode` (the number compendium.md's `#` column gives), `menu` (its place in the menu, 1 to
//   100), `page` (1 to 4), `name` (its rules text's title, as the engine writes it), `width`,
//   `height`;
// - `start_tiles`, `spawns_per_move`, `spawn_location`, `next_tiles`, `spawn_table` (the
//   engine's `TileSpawns` at the start: `[tile, weight]`, or its spawn boxes), `win` (the
//   engine's `winConditions` and `winRequirement`);
// - `spawned`: how often each tile spawned during the random play (a check of the table);
// - `moves`: `--boards` random reachable boards, each with the result of a move in each of the
//   four directions before the spawn: `{"board", "values", "turn", "game_vars", "results":
//   [{"dir", "moved", "board", "values", "gained", "game_vars"}]}` (`game_vars`: the engine's
//   game variables, before and after the move, as `SCstringify` writes them; `turn`: the moves
//   the game had played; with `--turns N`,
//   every other board's is drawn below N instead, and the engine's end-of-move scripts run for
//   it, so that rules read at moves no random game reaches are recorded: 2295's). Boards hold the engine's tiles (arrays; a BigInt is written
//   `"@BigInt 12"` as the engine's own save codes do; `"@Empty"` for an empty cell) and `values`
//   the numbers on them, as decimal text (`null` for an empty cell).
//
// See README.md beside this file for what was learnt of the engine.
'use strict';

const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');

const USAGE =
  'usage: node record.js <compendium checkout> <output dir> [--modes 1,2,3|all] [--boards N] [--seed S] [--turns N]';

function parseArgs(argv) {
  const args = { positional: [], modes: 'all', boards: 1000, seed: 1, turns: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--modes') args.modes = argv[++i];
    else if (a === '--boards') args.boards = Number(argv[++i]);
    else if (a === '--seed') args.seed = Number(argv[++i]);
    else if (a === '--turns') args.turns = Number(argv[++i]);
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else args.positional.push(a);
  }
  if (args.positional.length !== 2 || !(args.boards > 0) || !Number.isInteger(args.seed)
    || !(Number.isInteger(args.turns) && args.turns >= 0)) {
    throw new Error(USAGE);
  }
  return args;
}

/** A seeded generator of floats in [0, 1) (mulberry32): the engine's only source of chance. */
function seeded(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, get: () => state, set: (s) => { state = s; } };
}

/** A browser object that has every property and method, each doing nothing. */
function inert(name) {
  const target = function () {};
  return new Proxy(target, {
    get(t, key) {
      if (key === Symbol.toPrimitive) return () => '';
      if (key === Symbol.iterator) return function* () {};
      if (key === 'length') return 0;
      // An element's children: any index is an element, but there are none to walk.
      if (key === 'children' || key === 'childNodes') {
        return new Proxy([], {
          get(list, i) {
            if (typeof i === 'string' && /^\d+$/.test(i)) return inert(`${name}[${i}]`);
            return list[i];
          },
        });
      }
      // `while (el.lastElementChild) el.removeChild(…)` must end.
      if (key === 'lastElementChild' || key === 'lastChild') return null;
      if (key === 'value' || key === 'innerHTML' || key === 'innerText' || key === 'textContent') {
        return t[key] ?? '';
      }
      if (key === 'checked') return false;
      if (key in t) return t[key];
      return inert(`${name}.${String(key)}`);
    },
    set(t, key, value) {
      t[key] = value;
      return true;
    },
    apply: () => inert(`${name}()`),
    construct: () => inert(`new ${name}`),
  });
}

/** A context with the Compendium's scripts loaded, in the order its index.html loads them. */
function loadEngine(checkout, rng) {
  const math = Object.create(Math);
  math.random = rng.next;
  const context = {
    console, Math: math, Date, JSON, BigInt, Array, Object, String, Number, Boolean, Symbol, Error,
    TypeError, RangeError, Map, Set, WeakMap, Promise, Proxy, Reflect, RegExp, Infinity, NaN,
    isNaN, isFinite, parseInt, parseFloat, structuredClone,
    document: inert('document'),
    window: inert('window'),
    navigator: inert('navigator'),
    localStorage: { getItem: () => null, setItem() {}, removeItem() {} },
    alert: (message) => { throw new Error(`the engine alerted: ${message}`); },
    setTimeout: (f) => { f(); return 0; },
    clearTimeout() {},
    setInterval: () => 0,
    clearInterval() {},
    requestAnimationFrame: () => 0,
    getComputedStyle: () => inert('style'),
    Image: function () {},
  };
  context.globalThis = context;
  vm.createContext(context);
  for (const file of ['mathiasbynens-he/he.js', 'gaussianBigInt.js', 'BigRational.js',
    '2048 Power Compendium.js']) {
    const text = fs.readFileSync(path.join(checkout, file), 'utf8');
    vm.runInContext(text, context, { filename: file });
  }
  // Drawing, screens and saving do nothing; the rules text is kept for the mode's name.
  vm.runInContext(`
    for (const f of ['displayGrid', 'displayButtons', 'createArrows',
      'createStatBoxes', 'switchScreen', 'setupDisplayInterval', 'displayTile', 'announce',
      'exportSave', 'exportReplay', 'displayModifiers', 'colorArrow', 'displayRulesSNO']) {
      globalThis[f] = function () {};
    }
    globalThis.winScreen = async function () {};
    globalThis.GameOver = async function () {};
    globalThis.evaluateColor = function () { return '#000000'; };
    globalThis.__rules = [];
    globalThis.displayRules = function (id, ...elements) {
      if (id === 'rules_text') globalThis.__rules = elements;
    };
    // What a move changes, saved and put back around each probe.
    globalThis.__state = ['Grid', 'score', 'won', 'moves_so_far', 'manual_moves_so_far',
      'merges_so_far', 'moves_where_merged', 'merges_before_now', 'game_vars', 'modifier_vars',
      'SpawnBoxes', 'spawnConveyor', 'TileSpawns', 'directionsAvailable', 'discoveredTiles',
      'discoveredWinning', 'discoveredLosing', 'forcedSpawns', 'rngIndex', 'otherRandomEvents',
      'currentMovePlayed', 'movesPlayed', 'replayOtherSpawns', 'possibleOverChecked',
      'inputAvailable', 'moveInProgress', 'TileOrder'];
    globalThis.__save = function () {
      return __state.map((name) => compendiumStructuredClone(eval(name)));
    };
    globalThis.__restore = function (saved) {
      __state.forEach((name, i) => {
        globalThis.__value = compendiumStructuredClone(saved[i]);
        eval(name + ' = globalThis.__value');
      });
    };
    // Spawns: counted in play, left out of a probe (which records the move before its spawn).
    globalThis.__probing = false;
    globalThis.__spawned = new Map();
    const randomTiles = RandomTiles;
    const forced = forcedSpawnTiles;
    globalThis.RandomTiles = function (...args) {
      if (__probing) return [];
      const tiles = randomTiles(...args);
      for (const t of tiles) {
        const key = SCstringify(t);
        __spawned.set(key, (__spawned.get(key) || 0) + 1);
      }
      return tiles;
    };
    globalThis.forcedSpawnTiles = function (...args) {
      return __probing ? [] : forced(...args);
    };
    globalThis.__tiles = function () { return JSON.parse(SCstringify(Grid)); };
    // What one tile is worth, by the mode's own value function (evaluated with the tile put in
    // the first cell for a moment).
    globalThis.__valueOf = function (tile) {
      const kept = Grid[0][0];
      Grid[0][0] = compendiumStructuredClone(tile);
      try {
        return String(CalcArray(tileValueFunction, 0, 0));
      } finally {
        Grid[0][0] = kept;
      }
    };
    globalThis.__values = function () {
      return Grid.map((row, r) => row.map((tile, c) => {
        if (typeof tile === 'string' && tile[0] === '@') return null;
        return String(CalcArray(tileValueFunction, r, c));
      }));
    };
  `, context);
  return context;
}

/** The text of the rules' first `h1`, the mode's name. */
function nameOf(rules) {
  const h1 = rules.find((e) => Array.isArray(e) && e[0] === 'h1');
  if (!h1) return '';
  return Array.isArray(h1[1]) ? h1[1].join('') : String(h1[1]);
}

const DIRECTIONS = ['up', 'down', 'left', 'right'];

async function recordMode(context, rng, mode, boards, turns) {
  const run = (code) => vm.runInContext(code, context);
  run(`loadMode(${mode}); startGame(); __spawned = new Map();`);
  const info = JSON.parse(run(`SCstringify({
    width, height, start_tiles: startTileAmount, spawns_per_move: randomTileAmount,
    spawn_location: spawnLocation, next_tiles: nextTiles, spawn_table: TileSpawns,
    win: { conditions: winConditions, requirement: winRequirement },
    menu: modes_order.indexOf(${mode}) + 1,
    spawn_values: TileSpawns.map((e) => {
      if (!Array.isArray(e)) return null;
      if (Array.isArray(e[0])) return [__valueOf(e[0]), e[1]];
      // A spawn box: "Box", its weight, then tiles, each followed by its count unless the
      // count is 1 (the engine's refillSpawnBox reads a number after a tile as its count).
      // Written out as value, count, value, count ….
      if (e[0] === 'Box') {
        const out = ['Box', e[1]];
        for (let j = 2; j < e.length; j++) {
          const count = typeof e[j + 1] === 'number' ? e[j + 1] : 1;
          out.push(__valueOf(e[j]), count);
          if (typeof e[j + 1] === 'number') j++;
        }
        return out;
      }
      return null;
    }),
    win_values: winConditions.map((t) => Array.isArray(t) ? __valueOf(t) : null),
  })`));
  const name = nameOf(run('__rules'));
  const moves = [];
  let games = 1;
  let steps = 0;
  while (moves.length < boards) {
    const played = run('__save()');
    const at = turns > 0 && rng.next() < 0.5 ? Math.floor(rng.next() * turns) : null;
    const rngBefore = rng.get();
    const board = run('__tiles()');
    const values = run('__values()');
    // The moves played so far in this game: rules that hold on some moves only (2592) read it.
    // With --turns, every other board is probed as if at a move drawn below it instead: the
    // count set to it, and the engine's own end-of-move scripts run, which set what the rules
    // read of it (2295's ratio), so that moves no random game reaches are recorded too.
    let turn = run('moves_so_far');
    let before = played;
    if (at !== null) {
      turn = at;
      context.__at = played;
      run(`__restore(__at); moves_so_far = ${turn}; executeScripts("EndTurn", 0, 0, 0, 0, [1, 1, 0, 0]);`);
      before = run('__save()');
    }
    // The engine's game variables of the board probed (its counters, goals, seed pools …).
    const gameVars = run('JSON.parse(SCstringify(game_vars))');
    const results = [];
    for (let d = 0; d < 4; d++) {
      context.__at = before;
      run('__restore(__at); score = 0; __probing = true;');
      const moved = await run(`MoveHandler(${d})`);
      run('__probing = false;');
      results.push({
        dir: DIRECTIONS[d],
        moved: Boolean(moved),
        board: run('__tiles()'),
        values: run('__values()'),
        gained: run('String(score)'),
        game_vars: run('JSON.parse(SCstringify(game_vars))'),
      });
    }
    context.__at = played;
    run('__restore(__at)');
    rng.set(rngBefore);
    moves.push({ board, values, turn, game_vars: gameVars, results });
    const open = results.filter((r) => r.moved);
    // A new game when this one is over, or long enough to have shown its middle.
    if (open.length === 0 || steps > 2000) {
      run('startGame();');
      games++;
      steps = 0;
      continue;
    }
    const pick = open[Math.floor(rng.next() * open.length)];
    await run(`MoveHandler(${DIRECTIONS.indexOf(pick.dir)})`);
    // The replay log grows with every move and is copied by each probe's save; no rule reads it.
    run('movesPlayed.length = 0;');
    steps++;
  }
  const spawned = Object.fromEntries(run('[...__spawned.entries()]'));
  const spawnedValues = {};
  for (const [tile, count] of run('[...__spawned.entries()].map(([t, n]) => [__valueOf(SCparse(t)), n])')) {
    spawnedValues[tile] = (spawnedValues[tile] || 0) + count;
  }
  return {
    mode,
    menu: info.menu,
    page: Math.floor((info.menu - 1) / 25) + 1,
    name,
    width: info.width,
    height: info.height,
    start_tiles: info.start_tiles,
    spawns_per_move: info.spawns_per_move,
    spawn_location: info.spawn_location,
    next_tiles: info.next_tiles,
    spawn_table: info.spawn_table,
    spawn_values: info.spawn_values,
    win: info.win,
    win_values: info.win_values,
    games,
    spawned,
    spawned_values: spawnedValues,
    moves,
  };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  const [checkout, out] = args.positional;
  fs.mkdirSync(out, { recursive: true });
  const order = vm.runInContext('modes_order', loadEngine(checkout, seeded(0)));
  const modes = args.modes === 'all' ? [...order] : args.modes.split(',').map(Number);
  for (const mode of modes) {
    // A fresh engine for each mode, seeded by the seed and the mode, so that one mode's output
    // does not depend on which others were recorded.
    const rng = seeded(args.seed * 1000 + mode);
    const context = loadEngine(checkout, rng);
    const started = Date.now();
    try {
      const recorded = await recordMode(context, rng, mode, args.boards, args.turns);
      const file = path.join(out, `mode-${mode}.json`);
      fs.writeFileSync(file, `${JSON.stringify(recorded)}\n`);
      process.stderr.write(
        `mode ${mode} (${recorded.name}): ${recorded.moves.length} boards, ${recorded.games} games, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s\n`,
      );
    } catch (e) {
      process.stderr.write(`mode ${mode}: not recorded: ${e.message}\n`);
      process.exitCode = 1;
    }
  }
}

main();
