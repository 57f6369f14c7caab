import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/*
 * The folder rules lint cannot express (docs/architecture.md#ownership): the folders of src/modules
 * import each other without cycles, and src/common imports none of them. eslint.config.mjs checks
 * the entity imports (READ_JOINS) and src/common's imports file by file; this test sees the whole
 * graph.
 */

/**
 * Module → module imports that may close a cycle, each with why. Only entity imports may be listed
 * (a read join or foreign key the importer declares; TypeORM resolves them lazily), and the test
 * fails when a listed edge carries anything else or no longer exists. Shrink this list; never grow
 * it to let a service, module or DTO import close a cycle.
 */
const TOLERATED_CYCLE_EDGES: Record<string, string> = {
  'cdn-locks -> cdns':
    "cdn_lock.cdn_id's foreign key to cdn; cdns calls CdnLocksService before it changes or deletes a CDN",
  'server-capabilities -> delivery-services':
    'the required capability foreign key to deliveryservice and its list join; delivery-services asks RequiredCapabilitiesService',
};

const SRC = __dirname;
const MODULES = join(SRC, 'modules');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports: static, side-effect and dynamic imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const patterns = [
    /^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm,
    /^\s*import\s+'([^']+)'/gm,
    /\bimport\(\s*'([^']+)'\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]));
}

/** The module folder an import names ('src/modules/<name>/…'), if any. */
function moduleOf(specifier: string): string | undefined {
  return /^src\/modules\/([^/]+)\//.exec(specifier)?.[1];
}

interface Edge {
  from: string;
  to: string;
  /** `<importing file> → <specifier>` for each import that makes the edge. */
  imports: string[];
}

function moduleGraph(): Map<string, Edge> {
  const edges = new Map<string, Edge>();
  for (const file of sourceFiles(MODULES)) {
    const from = relative(MODULES, file).split(sep)[0];
    for (const specifier of importsOf(file)) {
      const to = moduleOf(specifier);
      if (to === undefined || to === from) {
        continue;
      }
      const key = `${from} -> ${to}`;
      const edge = edges.get(key) ?? { from, to, imports: [] };
      edge.imports.push(`${relative(SRC, file)} → ${specifier}`);
      edges.set(key, edge);
    }
  }
  return edges;
}

/** Strongly connected components of more than one module (Tarjan): each one holds a cycle. */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) {
        found.push(component.sort());
      }
    }
  };
  for (const node of [...next.keys()].sort()) {
    if (!index.has(node)) {
      visit(node);
    }
  }
  return found;
}

describe('module boundaries (docs/architecture.md#ownership)', () => {
  const graph = moduleGraph();

  it('reads the imports between modules', () => {
    expect(graph.get('auth -> users')?.imports.length).toBeGreaterThan(0);
  });

  it('src/common imports nothing from src/modules', () => {
    const offenders = sourceFiles(join(SRC, 'common')).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier === 'src/modules' || moduleOf(specifier) !== undefined)
        .map((specifier) => `${relative(SRC, file)} → ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between module folders', () => {
    const counted = [...graph.entries()].filter(([key]) => !(key in TOLERATED_CYCLE_EDGES));
    const report = cycles(counted.map(([, edge]) => edge)).map((component) => ({
      modules: component.join(', '),
      edges: counted
        .filter(([, edge]) => component.includes(edge.from) && component.includes(edge.to))
        .map(([key, edge]) => `${key}: ${edge.imports.join('; ')}`),
    }));
    expect(report).toEqual([]);
  });

  it('tolerates only existing, entity-only edges', () => {
    const problems = Object.keys(TOLERATED_CYCLE_EDGES).flatMap((key) => {
      const edge = graph.get(key);
      if (!edge) {
        return [`${key}: no longer imported; remove it from TOLERATED_CYCLE_EDGES`];
      }
      return edge.imports
        .filter((line) => !/\.entity$/.test(line))
        .map((line) => `${key}: ${line} is not an entity import`);
    });
    expect(problems).toEqual([]);
  });
});
