// @ts-check
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** The import rules every TypeScript file obeys (the per-folder blocks below repeat them). */
const IMPORT_PATTERNS = [
  { group: ['../*'], message: 'Import across folders with the absolute src/... path.' },
  {
    group: ['**/database/migrations', '**/database/migrations/**', './migrations/**'],
    message: 'Only migrations import migration code (docs/database.md).',
  },
];
const IMPORT_PATHS = [
  {
    name: '@nestjs/common',
    importNames: ['Body'],
    message: 'Receive a body with @ValidBody (src/common/validation/valid-body.ts).',
  },
];

/*
 * A module owns its tables (docs/architecture.md#ownership): only its own service writes them;
 * other modules read them through the owner's exported service, or through the read joins listed
 * here. READ_JOINS is the one place a module may import another module's entity: per importing
 * module (its folder under src/modules), '<owner folder>/<file>.entity' and why. An entity listed
 * here may be named in relations, joins and reads, never written: lint refuses insert/update/
 * delete/save/remove/upsert on it, a repository of it (@InjectRepository, forFeature), and the
 * query builder's insert().into(...) / delete().from(...) with it. To write another module's
 * table, call a method of the owner's exported service with your EntityManager (same transaction).
 */
const READ_JOINS = {
  cachegroups: {
    'types/type.entity': "cachegroup.type relation; a new or changed cache group's type is read and checked",
  },
  'cdn-locks': {
    'cdns/cdn.entity': 'foreign key cdn_lock.cdn',
    'users/user.entity': 'foreign keys cdn_lock.username and cdn_lock_user.username',
  },
  'cdn-notifications': {
    'cdns/cdn.entity': 'foreign key cdn_notification.cdn',
    'users/user.entity': 'foreign key cdn_notification.user',
  },
  'change-log': {
    'users/user.entity': "log.user relation: an entry's username is joined on read",
  },
  'delivery-service-requests': {
    'users/user.entity': 'foreign keys of the author, assignee, last editor and comment author',
  },
  'delivery-service-servers': {
    'delivery-services/delivery-service.entity':
      'foreign key deliveryservice_server.deliveryservice; lists join the delivery service',
    'servers/server.entity': 'foreign key deliveryservice_server.server',
    'servers/server-interface.entity':
      "type of a server's interfaces in the wire mapper (servers' loaded rows)",
  },
  'delivery-services': {
    'cachegroups/cachegroup.entity': 'foreign key origin.cachegroup',
    'cdns/cdn.entity': 'deliveryservice.cdn relation',
    'coordinates/coordinate.entity': 'foreign key origin.coordinate',
    'profiles/profile.entity': 'deliveryservice.profile relation, foreign key origin.profile',
    'service-categories/service-category.entity': 'foreign key deliveryservice.service_category',
    'tenants/tenant.entity': 'foreign keys deliveryservice.tenant_id and origin.tenant',
    'topologies/topology.entity': 'foreign key deliveryservice.topology',
    'types/type.entity':
      "deliveryservice.type and regex.type relations; a delivery service's and a regex's type are read and checked",
  },
  federations: {
    'delivery-services/delivery-service.entity': 'foreign key federation_deliveryservice.deliveryservice',
    'roles/role.entity': 'foreign key federation_tmuser.role',
    'types/type.entity': 'foreign key federation_resolver.type',
    'users/user.entity': 'foreign key federation_tmuser.tm_user',
  },
  jobs: {
    'delivery-services/delivery-service.entity': 'foreign key job.job_deliveryservice',
    'users/user.entity': 'foreign key job.job_user',
  },
  'phys-locations': { 'regions/region.entity': 'phys_location.region relation' },
  'profile-parameters': {
    'parameters/parameter.entity':
      'profile_parameter.parameter relation; the type of the parameters assigned',
    'profiles/profile.entity':
      'profile_parameter.profile relation (joined by the list); type of a copied profile',
  },
  profiles: { 'cdns/cdn.entity': 'profile.cdn relation' },
  regions: { 'divisions/division.entity': 'region.division relation' },
  'server-capabilities': {
    'delivery-services/delivery-service.entity':
      'foreign key of a required capability; the list joins the delivery service',
    'servers/server.entity': "foreign key of a server's capability; the list joins the server",
  },
  servercheck: {
    'servers/server.entity': 'foreign key servercheck.server',
    'types/type.entity': "foreign key to_extension.type; an extension's type is looked up by name",
  },
  servers: {
    'cachegroups/cachegroup.entity': 'server.cachegroup relation; queue_update reads the cache group',
    'cdns/cdn.entity': 'server.cdn relation; queue_update reads the CDN',
    'phys-locations/phys-location.entity': 'server.phys_location relation',
    'profiles/profile.entity': "server_profile.profile relation; a server's profiles are read and checked",
    'statuses/status.entity': 'server.status relation',
    'types/type.entity': "server.type relation; a server's type is read and checked",
  },
  'static-dns-entries': {
    'cachegroups/cachegroup.entity': 'foreign key staticdnsentry.cachegroup; lists join its name',
    'delivery-services/delivery-service.entity':
      'foreign key staticdnsentry.deliveryservice; lists join its xmlId',
    'types/type.entity': 'foreign key staticdnsentry.type; lists join its name',
  },
  steering: {
    'delivery-services/delivery-service.entity': 'foreign keys steering_target.deliveryservice and target',
    'types/type.entity': 'foreign key steering_target.type',
  },
  topologies: { 'cachegroups/cachegroup.entity': 'foreign key topology_cachegroup.cachegroup' },
  users: {
    'roles/role.entity': "tm_user.role relation; a user's role is looked up by name",
    'tenants/tenant.entity': 'tm_user.tenant relation; registration reads the tenant',
  },
};

const MODULES_DIR = join(import.meta.dirname, 'src', 'modules');
const MODULES = readdirSync(MODULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The class names an entity file exports (what a write would name). */
function entityClasses(entity) {
  const file = join(MODULES_DIR, `${entity}.ts`);
  if (!existsSync(file)) {
    throw new Error(`eslint.config.mjs READ_JOINS: no entity file src/modules/${entity}.ts`);
  }
  return [...readFileSync(file, 'utf8').matchAll(/export class (\w+)/g)].map((match) => match[1]);
}

const WRITES =
  'insert|update|delete|save|remove|upsert|softDelete|softRemove|restore|increment|decrement|clear';

/** The lint blocks of one module: only its READ_JOINS of foreign entities, and none of them written. */
function ownershipBlocks(module) {
  const joins = READ_JOINS[module] ?? {};
  const files = [`src/modules/${module}/**/*.ts`];
  const blocks = [
    {
      files,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...IMPORT_PATTERNS,
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
            paths: IMPORT_PATHS,
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

/*
 * The same ownership for writes spelled as SQL text (docs/architecture.md#ownership): raw statements
 * (`INSERT INTO t`, `REPLACE INTO t`, `UPDATE t … SET`, `DELETE FROM t`, `TRUNCATE t`) in string and
 * template literals, and query-builder writes naming their table by string (`insert().into('t')`,
 * `update('t')`, `delete().from('t')`, `manager.insert('t', …)`, `manager.clear('t')`), may name
 * only the tables of the file's own module. Each table's owner is read from the entities: `@Entity({ name: 't' })` in
 * src/modules/<owner>/**\/*.entity.ts, so a new entity needs no second list. Files outside
 * src/modules own no table. Migrations and tests are not checked. A table name computed at run time
 * (`INSERT INTO ${table}`) is not seen: keep such helpers inside the owning module.
 */

/**
 * Tables that exist (created by migrations) but have no entity, each with the module that writes
 * it (null: no application code writes it) and why. SQL run by `.query()` that writes a table that
 * is neither an entity's nor listed here fails lint, so a new table without an entity is listed
 * here first. At present: snapshot, last_deleted and TypeORM's schema_migrations.
 */
const TABLES_WITHOUT_ENTITY = {
  snapshot: {
    owner: 'snapshots',
    why: 'one row per CDN holding JSON documents; SnapshotsService upserts it with raw SQL (the upsert differs per database), no entity',
  },
  last_deleted: {
    owner: null,
    why: 'kept by AFTER DELETE triggers (migration last-deleted); the conditional-GET interceptor only reads it',
  },
  schema_migrations: {
    owner: null,
    why: "TypeORM's record of the migrations run; only the migration runner writes it",
  },
};

/**
 * Writes by SQL text or table name to another module's table, tolerated for now: per writing module,
 * '<table>': 'why'. Empty: shrink it, never grow it; move such a write into the owner's service (a
 * method taking the caller's EntityManager) instead.
 */
const RAW_WRITE_EXCEPTIONS = {};

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

/** table name → owner module and entity class name → owner module, read from the entity files. */
const TABLE_OWNERS = new Map();
const ENTITY_OWNERS = new Map();
for (const module of MODULES) {
  for (const file of filesUnder(join(MODULES_DIR, module), '.entity.ts')) {
    const text = readFileSync(file, 'utf8');
    const entities = [...text.matchAll(/@Entity\(\s*(?:\{\s*name:\s*)?'(\w+)'[\s\S]*?export class (\w+)/g)];
    if (entities.length !== (text.match(/@Entity\(/g) ?? []).length) {
      throw new Error(
        `eslint.config.mjs: ${relative(import.meta.dirname, file)} has an @Entity without a table name ('<table>' or { name: '<table>' })`,
      );
    }
    for (const [, table, entity] of entities) {
      TABLE_OWNERS.set(table, module);
      ENTITY_OWNERS.set(entity, module);
    }
  }
}
for (const [table, { owner }] of Object.entries(TABLES_WITHOUT_ENTITY)) {
  if (TABLE_OWNERS.has(table)) {
    throw new Error(`eslint.config.mjs TABLES_WITHOUT_ENTITY: ${table} is the table of an entity`);
  }
  if (owner !== null && !MODULES.includes(owner)) {
    throw new Error(`eslint.config.mjs TABLES_WITHOUT_ENTITY: no module folder src/modules/${owner}`);
  }
}
for (const [module, tables] of Object.entries(RAW_WRITE_EXCEPTIONS)) {
  if (!MODULES.includes(module)) {
    throw new Error(`eslint.config.mjs RAW_WRITE_EXCEPTIONS: no module folder src/modules/${module}`);
  }
  for (const table of Object.keys(tables)) {
    if (!TABLE_OWNERS.has(table) && !(table in TABLES_WITHOUT_ENTITY)) {
      throw new Error(`eslint.config.mjs RAW_WRITE_EXCEPTIONS: ${table} is no known table`);
    }
  }
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

/** The rule's plugin; exported for src/app.boundaries.spec.ts, which runs it on examples. */
export const tableOwnership = {
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
        const path = relative(MODULES_DIR, context.filename);
        const module = path.startsWith('..') ? null : path.split(sep)[0];
        const writer = module === null ? 'code outside src/modules' : `module ${module}`;
        const allowed = RAW_WRITE_EXCEPTIONS[module] ?? {};
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
          } else if (table in TABLES_WITHOUT_ENTITY) {
            owner = TABLES_WITHOUT_ENTITY[table].owner;
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
                ? `No application code writes ${name} (${TABLES_WITHOUT_ENTITY[table].why}; docs/architecture.md#ownership).`
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

for (const module of Object.keys(READ_JOINS)) {
  if (!MODULES.includes(module)) {
    throw new Error(`eslint.config.mjs READ_JOINS: no module folder src/modules/${module}`);
  }
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'eslint.config.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-console': 'error',
      'no-restricted-imports': ['error', { patterns: IMPORT_PATTERNS, paths: IMPORT_PATHS }],
    },
  },
  {
    // The shared mechanisms never depend on a resource module (docs/architecture.md#ownership): what
    // they need from one is an interface and an injection token here, bound in AppModule.
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...IMPORT_PATTERNS,
            {
              group: ['src/modules', 'src/modules/**'],
              message:
                'src/common never imports src/modules: move the shared piece into common/, or define an injection token here (docs/architecture.md#ownership).',
            },
          ],
          paths: IMPORT_PATHS,
        },
      ],
    },
  },
  ...MODULES.flatMap(ownershipBlocks),
  {
    // One way to insert (src/common/database/insert-rows.ts, docs/decisions.md#d106): TypeORM's
    // insert() reads every new row back with a SELECT that the services never use.
    files: ['src/modules/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'insert',
          message:
            'Insert with insertRow(manager, Entity, values) or insertRows (src/common/database/insert-rows.ts): no read-back SELECT.',
        },
      ],
    },
  },
  {
    // Writes named by SQL text or by table name (TABLES_WITHOUT_ENTITY, RAW_WRITE_EXCEPTIONS above).
    files: ['src/**/*.ts'],
    ignores: ['src/database/migrations/**', 'src/**/*.spec.ts'],
    plugins: { 'table-ownership': tableOwnership },
    rules: { 'table-ownership/no-foreign-table-writes': 'error' },
  },
  {
    // Migrations are frozen once applied: they import only typeorm, node built-ins and their frozen,
    // versioned helpers under ./support — never application code or another migration.
    files: ['src/database/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*'], message: 'Migrations are self-contained (docs/database.md).' },
            {
              group: ['src/**', 'test/**'],
              message: 'Migrations never import application code, which changes; copy what they need.',
            },
            {
              group: ['./*', '!./support'],
              message: 'A migration never imports another migration; copy what it needs (docs/database.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
