// The module-ownership lint (docs/architecture.md#ownership), as a function of the lists that
// eslint.config.mjs keeps (READ_JOINS, TABLES_WITHOUT_ENTITY, RAW_WRITE_EXCEPTIONS): one lint block
// per module restricting which foreign entities it may import and never write, and a rule that finds
// writes to another module's table spelled as SQL text or as a table name.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const WRITES =
  'insert|update|delete|save|remove|upsert|softDelete|softRemove|restore|increment|decrement|clear';

/** The files of a folder and its subfolders whose names end with `suffix`. */
function filesUnder(dir, suffix) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return filesUnder(path, suffix);
    }
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

/** SQL that writes a table, the table name in group 1 (with or without quotes or backticks). */
const NAME = '[`"\']?(\\w+)[`"\']?';
/** Words that cannot be a table's alias (so `update x with set …` in prose is no UPDATE). */
const RESERVED = '(?:SET|WITH|WHERE|FROM|JOIN|INNER|LEFT|CROSS|ON|AND|OR|NOT|IN|IS|TO|BY|FOR)';
const SQL_WRITES = [
  `\\bINSERT\\s+(?:(?:LOW_PRIORITY|DELAYED|HIGH_PRIORITY|IGNORE|OR\\s+\\w+)\\s+)*INTO\\s+${NAME}`,
  `\\bREPLACE\\s+(?:(?:LOW_PRIORITY|DELAYED)\\s+)?INTO\\s+${NAME}`,
  `\\bUPDATE\\s+(?:(?:LOW_PRIORITY|IGNORE|OR\\s+\\w+)\\s+)*${NAME}(?:\\s+(?:AS\\s+)?(?!${RESERVED}\\b)\\w+)?\\s+(?:SET|(?:INNER\\s+|LEFT\\s+|CROSS\\s+)?JOIN)\\b`,
  `\\bDELETE\\s+(?:\\w+\\s+)?FROM\\s+${NAME}`,
  `\\bTRUNCATE\\s+(?:TABLE\\s+)?${NAME}`,
].map((pattern) => new RegExp(pattern, 'gi'));

/** Stands for an expression inside SQL text: never part of a table name. */
const HOLE = '\u0000';

/** The static text of a string, template or `+` concatenation, HOLE for each dynamic part. */
function staticText(node) {
  if (node.type === 'Literal') {
    return typeof node.value === 'string' ? node.value : HOLE;
  }
  if (node.type === 'TemplateLiteral') {
    return node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join(HOLE);
  }
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    return staticText(node.left) + staticText(node.right);
  }
  return HOLE;
}

/** The string a call argument is, when it is one (a literal or a template without expressions). */
function stringArgument(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') {
    return node.value;
  }
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) {
    return node.quasis[0].value.cooked;
  }
  return undefined;
}

/** The TypeORM write methods (WRITES above), named by a query builder's or entity manager's call. */
const WRITE_METHOD = new RegExp(`^(${WRITES})$`);

const methodName = (node) =>
  node?.type === 'CallExpression' && node.callee.type === 'MemberExpression'
    ? node.callee.property.name
    : undefined;

/*
 * The table-ownership rule: the same ownership for writes spelled as SQL text (docs/architecture.md#ownership): raw statements
 * (`INSERT INTO t`, `REPLACE INTO t`, `UPDATE t … SET`, `DELETE FROM t`, `TRUNCATE t`) in string and
 * template literals, and query-builder writes naming their table by string (`insert().into('t')`,
 * `update('t')`, `delete().from('t')`, `manager.insert('t', …)`, `manager.clear('t')`), may name
 * only the tables of the file's own module. Each table's owner is read from the entities: `@Entity({ name: 't' })` in
 * src/modules/<owner>/**\/*.entity.ts, so a new entity needs no second list. Files outside
 * src/modules own no table. Migrations and tests are not checked. A table name computed at run time
 * (`INSERT INTO ${table}`) is not seen: keep such helpers inside the owning module.
 */

/**
 * The ownership lint for the modules under `<root>/src/modules`: `moduleBlocks` (one per module,
 * its allowed foreign entities from `readJoins`) and the `plugin` with the SQL-text rule.
 */
export function moduleOwnership({
  root,
  readJoins,
  tablesWithoutEntity,
  rawWriteExceptions,
  importPatterns,
  importPaths,
}) {
  const modulesDir = join(root, 'src', 'modules');
  const MODULES = readdirSync(modulesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  /** The class names an entity file exports (what a write would name). */
  function entityClasses(entity) {
    const file = join(modulesDir, `${entity}.ts`);
    if (!existsSync(file)) {
      throw new Error(`eslint.config.mjs READ_JOINS: no entity file src/modules/${entity}.ts`);
    }
    return [...readFileSync(file, 'utf8').matchAll(/export class (\w+)/g)].map((match) => match[1]);
  }

  /** The lint blocks of one module: only its READ_JOINS of foreign entities, and none of them written. */
  function ownershipBlocks(module) {
    const joins = readJoins[module] ?? {};
    const files = [`src/modules/${module}/**/*.ts`];
    const blocks = [
      {
        files,
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                ...importPatterns,
                {
                  group: [
                    'src/modules/*/**/*.entity',
                    `!src/modules/${module}/**`,
                    ...Object.keys(joins).map((entity) => `!src/modules/${entity}`),
                  ],
                  message:
                    "Another module's entity: read it through its module's exported service, or list the read join in READ_JOINS (eslint.config.mjs, docs/architecture.md#ownership).",
                },
              ],
              paths: importPaths,
            },
          ],
        },
      },
    ];
    const names = Object.keys(joins).flatMap(entityClasses);
    if (names.length > 0) {
      const foreign = `/^(${names.join('|')})$/`;
      const message = `A module writes only its own tables: ${names.join(', ')} belong to another module; call its owner's service with your EntityManager (docs/architecture.md#ownership).`;
      blocks.push({
        files,
        rules: {
          'no-restricted-syntax': [
            'error',
            {
              selector: `CallExpression[callee.property.name=/^(${WRITES})$/][arguments.0.name=${foreign}]`,
              message,
            },
            {
              selector: `CallExpression[callee.property.name=/^(${WRITES})$/][callee.object.callee.property.name='getRepository'][callee.object.arguments.0.name=${foreign}]`,
              message,
            },
            { selector: `CallExpression[callee.property.name='into'][arguments.0.name=${foreign}]`, message },
            // src/common/database/insert-rows.ts: insertRow(manager, Entity, …) / insertRows(manager, Entity, …)
            {
              selector: `CallExpression[callee.name=/^insertRows?$/][arguments.1.name=${foreign}]`,
              message,
            },
            {
              selector: `CallExpression[callee.property.name='from'][callee.object.callee.property.name='delete'][arguments.0.name=${foreign}]`,
              message,
            },
            {
              selector: `CallExpression[callee.name='InjectRepository'][arguments.0.name=${foreign}]`,
              message,
            },
            {
              selector: `CallExpression[callee.property.name='forFeature'] Identifier[name=${foreign}]`,
              message,
            },
          ],
        },
      });
    }
    return blocks;
  }

  /** table name → owner module and entity class name → owner module, read from the entity files. */
  const TABLE_OWNERS = new Map();
  const ENTITY_OWNERS = new Map();
  for (const module of MODULES) {
    for (const file of filesUnder(join(modulesDir, module), '.entity.ts')) {
      const text = readFileSync(file, 'utf8');
      const entities = [...text.matchAll(/@Entity\(\s*(?:\{\s*name:\s*)?'(\w+)'[\s\S]*?export class (\w+)/g)];
      if (entities.length !== (text.match(/@Entity\(/g) ?? []).length) {
        throw new Error(
          `eslint.config.mjs: ${relative(root, file)} has an @Entity without a table name ('<table>' or { name: '<table>' })`,
        );
      }
      for (const [, table, entity] of entities) {
        TABLE_OWNERS.set(table, module);
        ENTITY_OWNERS.set(entity, module);
      }
    }
  }
  for (const [table, { owner }] of Object.entries(tablesWithoutEntity)) {
    if (TABLE_OWNERS.has(table)) {
      throw new Error(`eslint.config.mjs TABLES_WITHOUT_ENTITY: ${table} is the table of an entity`);
    }
    if (owner !== null && !MODULES.includes(owner)) {
      throw new Error(`eslint.config.mjs TABLES_WITHOUT_ENTITY: no module folder src/modules/${owner}`);
    }
  }
  for (const [module, tables] of Object.entries(rawWriteExceptions)) {
    if (!MODULES.includes(module)) {
      throw new Error(`eslint.config.mjs RAW_WRITE_EXCEPTIONS: no module folder src/modules/${module}`);
    }
    for (const table of Object.keys(tables)) {
      if (!TABLE_OWNERS.has(table) && !(table in tablesWithoutEntity)) {
        throw new Error(`eslint.config.mjs RAW_WRITE_EXCEPTIONS: ${table} is no known table`);
      }
    }
  }

  /** The rule's plugin (src/app.boundaries.spec.ts runs it on examples). */
  const plugin = {
    meta: { name: 'table-ownership' },
    rules: {
      'no-foreign-table-writes': {
        meta: {
          type: 'problem',
          docs: {
            description:
              'A module writes only its own tables, also in SQL text (docs/architecture.md#ownership).',
          },
          schema: [],
        },
        create(context) {
          const path = relative(modulesDir, context.filename);
          const module = path.startsWith('..') ? null : path.split(sep)[0];
          const writer = module === null ? 'code outside src/modules' : `module ${module}`;
          const allowed = rawWriteExceptions[module] ?? {};
          /**
           * Reports `node` when `name` is not the module's table: from SQL text ('sql'; 'query' when
           * the text is what a .query() call runs, where an unknown table is reported too), or a
           * query-builder or entity-manager argument ('target': a table or an entity class name).
           */
          const check = (node, name, from) => {
            const table = name.toLowerCase();
            let owner;
            if (TABLE_OWNERS.has(table)) {
              owner = TABLE_OWNERS.get(table);
            } else if (from === 'target' && ENTITY_OWNERS.has(name)) {
              owner = ENTITY_OWNERS.get(name);
            } else if (table in tablesWithoutEntity) {
              owner = tablesWithoutEntity[table].owner;
            } else {
              if (from === 'query') {
                context.report({
                  node,
                  message: `${name} is no entity's table: give it an entity, or list it in TABLES_WITHOUT_ENTITY with its writer (eslint.config.mjs, docs/architecture.md#ownership).`,
                });
              }
              return;
            }
            if (owner === module || table in allowed) {
              return;
            }
            context.report({
              node,
              message:
                owner === null
                  ? `No application code writes ${name} (${tablesWithoutEntity[table].why}; docs/architecture.md#ownership).`
                  : `A module writes only its own tables: ${name} belongs to ${owner}, not to ${writer}; call its owner's service with your EntityManager (docs/architecture.md#ownership).`,
            });
          };
          /** Checks the SQL text of a string, template or concatenation once, at its outermost node. */
          const checkText = (node) => {
            const parent = node.parent;
            if (parent?.type === 'BinaryExpression' && parent.operator === '+') {
              return;
            }
            const text = staticText(node);
            const run =
              parent?.type === 'CallExpression' &&
              methodName(parent) === 'query' &&
              parent.arguments[0] === node;
            for (const pattern of SQL_WRITES) {
              for (const match of text.matchAll(pattern)) {
                check(node, match[1], run ? 'query' : 'sql');
              }
            }
          };
          return {
            Literal: (node) => typeof node.value === 'string' && checkText(node),
            TemplateLiteral: checkText,
            BinaryExpression: (node) => node.operator === '+' && checkText(node),
            CallExpression(node) {
              const method = methodName(node);
              const first = stringArgument(node.arguments[0]);
              if (method === undefined || first === undefined) {
                return;
              }
              const object = node.callee.object;
              if (
                method === 'into' ||
                ((method === 'update' || method === 'clear') && node.arguments.length === 1) ||
                (method === 'from' && methodName(object) === 'delete') ||
                (WRITE_METHOD.test(method) && node.arguments.length >= 2)
              ) {
                check(node.arguments[0], first, 'target');
              }
            },
            'CallExpression[callee.property.name="getRepository"]'(node) {
              const first = stringArgument(node.arguments[0]);
              const write =
                node.parent?.type === 'MemberExpression' && node.parent.object === node
                  ? node.parent.property.name
                  : undefined;
              if (first !== undefined && write !== undefined && WRITE_METHOD.test(write)) {
                check(node.arguments[0], first, 'target');
              }
            },
          };
        },
      },
    },
  };

  for (const module of Object.keys(readJoins)) {
    if (!MODULES.includes(module)) {
      throw new Error(`eslint.config.mjs READ_JOINS: no module folder src/modules/${module}`);
    }
  }

  return { modules: MODULES, moduleBlocks: MODULES.flatMap(ownershipBlocks), plugin };
}
