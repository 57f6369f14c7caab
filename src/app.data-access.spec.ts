import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/*
 * The data-access lint (eslint/data-access.mjs, docs/architecture.md#data-access) on examples: what
 * it reports where, with lists of its own (`cdns` converted, `stats` and `jobs` still to convert),
 * and which files the repository's configuration runs it on. Runs in a child process, because the
 * plugin and the configuration are ES modules.
 */
const ROOT = join(__dirname, '..');

interface Example {
  file: string;
  code: string;
}

interface Result {
  messages: string[][];
  severity: Record<string, Record<string, unknown>>;
}

const RULES = ['data-access/typeorm-internals', 'data-access/unit-of-work', 'data-access/repository-only'];

function lintExamples(examples: Example[], files: string[]): Result {
  const script = `
    import { readFileSync } from 'node:fs';
    import { join } from 'node:path';
    import { ESLint, Linter } from 'eslint';
    import tseslint from 'typescript-eslint';
    import { dataAccess } from './eslint/data-access.mjs';
    const rules = ${JSON.stringify(RULES)};
    const plugin = dataAccess({ toConvert: ['stats', 'jobs'], transactionsToConvert: ['jobs'] });
    const config = [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser },
      plugins: { 'data-access': plugin }, rules: Object.fromEntries(rules.map((rule) => [rule, 'error'])) }];
    const linter = new Linter();
    const { examples, files } = JSON.parse(readFileSync(0, 'utf8'));
    const messages = examples.map(({ file, code }) =>
      linter.verify(code, config, { filename: join(process.cwd(), file) }).map((m) => m.message));
    const eslint = new ESLint();
    const severity = {};
    for (const file of files) {
      const configured = (await eslint.calculateConfigForFile(file)).rules ?? {};
      severity[file] = Object.fromEntries(rules.map((rule) => [rule, configured[rule]?.[0] ?? null]));
    }
    process.stdout.write(JSON.stringify({ messages, severity }));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    input: JSON.stringify({ examples, files }),
    encoding: 'utf8',
  });
  return JSON.parse(output) as Result;
}

const INTERNALS = "is TypeORM's inside";
const REPOSITORY = "a module's data access is in its <name>.repository.ts";
const UNIT_OF_WORK = 'Make the work atomic with unitOfWork.run';

describe('the data-access lint (eslint/data-access.mjs, docs/architecture.md#data-access)', () => {
  const serviceCode = [
    "import { Repository } from 'typeorm';",
    "import { getPlainMany } from 'src/common/database/plain-rows';",
    "void dataSource.query('SELECT 1');",
    "void repository.createQueryBuilder('x');",
  ].join('\n');
  const transactionCode = [
    'void this.dataSource.transaction(async (manager) => manager);',
    'void inRequestTransaction(dataSource, async (runner) => runner);',
  ].join('\n');
  const internalsCode = [
    "import { DriverUtils } from 'typeorm/driver/DriverUtils';",
    'void qb.expressionMap;',
    // (split, so that this file does not itself hold the name the rule looks for)
    "const name = 'orm_" + "param_0';",
    'void driver.escapeQueryWithParameters(sql, {}, {});',
  ].join('\n');
  const examples: Example[] = [
    { file: 'src/modules/cdns/cdns.service.ts', code: serviceCode },
    { file: 'src/modules/cdns/cdns.repository.ts', code: serviceCode },
    { file: 'src/modules/cdns/cdn.entity.ts', code: "import { Entity } from 'typeorm';" },
    { file: 'src/modules/cdns/cdns.module.ts', code: "import { TypeOrmModule } from '@nestjs/typeorm';" },
    {
      file: 'src/modules/cdns/cdns.controller.ts',
      code: "import { InjectDataSource } from '@nestjs/typeorm';",
    },
    { file: 'src/modules/stats/stats.service.ts', code: serviceCode },
    { file: 'src/modules/cdns/cdns.service.ts', code: transactionCode },
    { file: 'src/modules/jobs/jobs.service.ts', code: transactionCode },
    { file: 'src/common/conditional/example.ts', code: transactionCode },
    { file: 'src/common/database/plain-rows.ts', code: internalsCode },
  ];
  const files = [
    'src/modules/cdns/cdns.service.ts',
    'src/common/database/plain-rows.ts',
    'src/common/database/typeorm-adapter.ts',
    'src/database/migrations/1763810000000-last-deleted.ts',
    'test/e2e/support/schema.ts',
  ];
  let result: Result;

  beforeAll(() => {
    result = lintExamples(examples, files);
  }, 60_000);

  it('refuses TypeORM and SQL outside a converted module’s repository, entities and module file', () => {
    const [service, repository, entity, moduleFile, controller, unconverted] = result.messages;
    expect(service).toEqual([
      expect.stringContaining(`'typeorm' imported outside the repository: ${REPOSITORY}`),
      expect.stringContaining(`'src/common/database/plain-rows' imported outside the repository`),
      expect.stringContaining('.query() outside the repository'),
      expect.stringContaining('.createQueryBuilder() outside the repository'),
    ]);
    expect([repository, entity, moduleFile, unconverted]).toEqual([[], [], [], []]);
    expect(controller).toEqual([
      expect.stringContaining("'@nestjs/typeorm' imported outside the repository"),
    ]);
  });

  it('refuses transactions of their own in modules, but for those still to convert', () => {
    const [converted, toConvert, common] = result.messages.slice(6, 9);
    expect(converted).toEqual([expect.stringContaining(UNIT_OF_WORK), expect.stringContaining(UNIT_OF_WORK)]);
    expect(toConvert).toEqual([]);
    expect(common).toEqual([]);
  });

  it("refuses TypeORM's internals", () => {
    const internals = result.messages[9];
    expect(internals.map((message) => message.slice(0, message.indexOf(` ${INTERNALS}`)))).toEqual([
      "'typeorm/driver/DriverUtils'",
      'DriverUtils',
      'DriverUtils',
      "A query builder's expressionMap",
      "The 'orm_" + "param_<n>' naming",
      "The driver's parameter binding (use bindParameters)",
    ]);
  });

  it('runs on the application and the tests, but not on the adapter or the migrations', () => {
    const on = {
      'data-access/typeorm-internals': 2,
      'data-access/unit-of-work': 2,
      'data-access/repository-only': 2,
    };
    const off = {
      'data-access/typeorm-internals': null,
      'data-access/unit-of-work': null,
      'data-access/repository-only': null,
    };
    expect(result.severity).toEqual({
      'src/modules/cdns/cdns.service.ts': on,
      'src/common/database/plain-rows.ts': on,
      'src/common/database/typeorm-adapter.ts': off,
      'src/database/migrations/1763810000000-last-deleted.ts': off,
      'test/e2e/support/schema.ts': on,
    });
  });
});
