import { execFileSync } from 'node:child_process';
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
const ROOT = join(SRC, '..');
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

/** An example file, as `<path under the repository>`, and what it contains. */
interface Example {
  file: string;
  code: string;
}

/*
 * eslint.config.mjs's table-ownership rule on examples (lint runs it on the tree; these show what it
 * reports): per example, the messages. Runs in a child process, because the config is an ES module.
 */
function lintExamples(examples: Example[]): { messages: string[][]; severity: Record<string, unknown> } {
  const script = `
    import { readFileSync } from 'node:fs';
    import { join } from 'node:path';
    import { ESLint, Linter } from 'eslint';
    import tseslint from 'typescript-eslint';
    import { tableOwnership } from './eslint.config.mjs';
    const rule = 'table-ownership/no-foreign-table-writes';
    const config = [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser },
      plugins: { 'table-ownership': tableOwnership }, rules: { [rule]: 'error' } }];
    const linter = new Linter();
    const examples = JSON.parse(readFileSync(0, 'utf8'));
    const messages = examples.map(({ file, code }) =>
      linter.verify(code, config, { filename: join(process.cwd(), file) }).map((m) => m.message));
    const eslint = new ESLint();
    const severity = {};
    for (const file of ['src/modules/servers/servers.service.ts', 'src/common/database/locks.ts',
      'src/database/migrations/1763810000000-last-deleted.ts', 'src/app.boundaries.spec.ts']) {
      severity[file] = (await eslint.calculateConfigForFile(file)).rules?.[rule]?.[0] ?? null;
    }
    process.stdout.write(JSON.stringify({ messages, severity }));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    input: JSON.stringify(examples),
    encoding: 'utf8',
  });
  return JSON.parse(output) as { messages: string[][]; severity: Record<string, unknown> };
}

describe('table ownership in SQL text (eslint.config.mjs, docs/architecture.md#ownership)', () => {
  const servers = 'src/modules/servers/example.ts';
  const examples: Record<string, Example> = {
    rawForeign: {
      file: servers,
      code: [
        "void manager.query('DELETE FROM parameter WHERE id = ?', [1]);",
        'void dataSource.query(`UPDATE \\`profile\\` SET description = ${description} WHERE id = ?`, [1]);',
        'const sql = \'insert into \' + "profile_parameter (profile, parameter) VALUES (?, ?)";',
        "const again = 'REPLACE INTO cdn (name) VALUES (?)';",
        "const wipe = 'TRUNCATE TABLE type';",
      ].join('\n'),
    },
    builderForeign: {
      file: servers,
      code: [
        "void manager.createQueryBuilder().insert().into('parameter').values({}).execute();",
        "void manager.createQueryBuilder().update('profile').set({}).execute();",
        "void manager.createQueryBuilder().delete().from('cdn').execute();",
        "void manager.delete('Cdn', { id: 1 });",
        "void manager.getRepository('profile_parameter').save({});",
        "void manager.clear('parameter');",
      ].join('\n'),
    },
    own: {
      file: servers,
      code: [
        "void manager.query('UPDATE server SET status = ? WHERE id = ?', [1, 2]);",
        'void manager.query(`DELETE FROM ip_address WHERE server = ${id}`);',
        "void manager.query('INSERT INTO server_profile (server, profile_name, priority) SELECT ?, name, 0 FROM profile');",
        "void manager.createQueryBuilder().delete().from('server').execute();",
        "void manager.query('SELECT id FROM parameter p JOIN profile_parameter pp ON pp.parameter = p.id');",
        "const prose = 'cannot update regex with set number 0';",
        "headers.delete('type');",
      ].join('\n'),
    },
    withoutEntity: {
      file: 'src/modules/snapshots/example.ts',
      code: [
        "void manager.query('INSERT INTO snapshot (cdn, crconfig) VALUES (?, ?)');",
        "void manager.query('DELETE FROM last_deleted');",
      ].join('\n'),
    },
    snapshotElsewhere: {
      file: servers,
      code: "void manager.query('DELETE FROM snapshot WHERE cdn = ?', ['x']);",
    },
    unknown: {
      file: servers,
      code: [
        "void manager.query('DELETE FROM no_such_table');",
        "const notRun = 'delete it from the list';",
      ].join('\n'),
    },
    outsideModules: {
      file: 'src/common/example.ts',
      code: "void manager.query('UPDATE tm_user SET role = ?', [1]);",
    },
  };
  const names = Object.keys(examples);
  let result: { messages: string[][]; severity: Record<string, unknown> };
  const messages = (name: string): string[] => result.messages[names.indexOf(name)];

  beforeAll(() => {
    result = lintExamples(Object.values(examples));
  });

  it("reports raw SQL writes to another module's tables", () => {
    expect(messages('rawForeign')).toEqual([
      expect.stringContaining('parameter belongs to parameters, not to module servers'),
      expect.stringContaining('profile belongs to profiles, not to module servers'),
      expect.stringContaining('profile_parameter belongs to profile-parameters, not to module servers'),
      expect.stringContaining('cdn belongs to cdns'),
      expect.stringContaining('type belongs to types'),
    ]);
    expect(messages('rawForeign')[0]).toContain('docs/architecture.md#ownership');
  });

  it('reports query-builder and entity-manager writes that name a foreign table by string', () => {
    expect(messages('builderForeign')).toEqual([
      expect.stringContaining('parameter belongs to parameters'),
      expect.stringContaining('profile belongs to profiles'),
      expect.stringContaining('cdn belongs to cdns'),
      expect.stringContaining('Cdn belongs to cdns'),
      expect.stringContaining('profile_parameter belongs to profile-parameters'),
      expect.stringContaining('parameter belongs to parameters'),
    ]);
  });

  it("accepts writes to the module's own tables, reads of others, and prose", () => {
    expect(messages('own')).toEqual([]);
  });

  it('knows the tables without an entity: their writer, or none', () => {
    expect(messages('withoutEntity')).toEqual([
      expect.stringContaining('No application code writes last_deleted'),
    ]);
    expect(messages('snapshotElsewhere')).toEqual([expect.stringContaining('snapshot belongs to snapshots')]);
  });

  it('reports an unknown table that a query writes', () => {
    expect(messages('unknown')).toEqual([expect.stringContaining("no_such_table is no entity's table")]);
  });

  it('gives code outside src/modules no table', () => {
    expect(messages('outsideModules')).toEqual([
      expect.stringContaining('tm_user belongs to users, not to code outside src/modules'),
    ]);
  });

  it('is on for application code, off for migrations and tests', () => {
    expect(result.severity).toEqual({
      'src/modules/servers/servers.service.ts': 2,
      'src/common/database/locks.ts': 2,
      'src/database/migrations/1763810000000-last-deleted.ts': null,
      'src/app.boundaries.spec.ts': null,
    });
  });
});
