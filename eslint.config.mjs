// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import { dataAccess } from './eslint/data-access.mjs';
import { moduleOwnership } from './eslint/module-ownership.mjs';

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
/**
 * Under src/modules a handler's path and query parameters are declared (@ValidPath, @ValidQuery,
 * @ListParams: src/common/request-input/request-input.ts), never read by hand or by a decorator of
 * the module's own.
 */
const MODULE_IMPORT_PATHS = [
  ...IMPORT_PATHS,
  {
    name: '@nestjs/common',
    importNames: ['Query', 'Param', 'createParamDecorator'],
    message:
      'Declare path and query parameters with @ValidPath / @ValidQuery / @ListParams (src/common/request-input/request-input.ts).',
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

/**
 * Tables that exist (created by migrations) but have no entity, each with the module that writes
 * it (null: no application code writes it) and why. SQL run by `.query()` that writes a table that
 * is neither an entity's nor listed here fails lint, so a new table without an entity is listed
 * here first. At present: snapshot, last_deleted and TypeORM's schema_migrations.
 */
const TABLES_WITHOUT_ENTITY = {
  snapshot: {
    owner: 'snapshots',
    why: 'one row per CDN holding JSON documents; SnapshotsRepository upserts it with raw SQL (the upsert differs per database), no entity',
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

/**
 * Versions at the edges (docs/decisions.md#d180): a service or a document builder never sees the
 * API version. The controller turns each version's body into one version-free input (and the rules
 * that differ into values, src/common/versioning/per-version.ts) and the service's canonical result
 * into each version's shape (byVersion, src/common/wire/by-version.ts). No service is excepted:
 * a file listed here would take the version; keep the list empty.
 */
const VERSIONED_SERVICES_TO_CONVERT = [];

/**
 * The modules whose services still run their own SQL or import TypeORM: none; every module's data
 * access is in its `<name>.repository.ts` (docs/architecture.md#data-access). Keep it empty.
 */
const DATA_ACCESS_TO_CONVERT = [];

/**
 * The modules that still open transactions their own way (`.transaction(`): none; every module makes
 * work atomic with `unitOfWork.run`. Keep it empty.
 */
const TRANSACTIONS_TO_CONVERT = [];

const dataAccessPlugin = dataAccess({
  toConvert: DATA_ACCESS_TO_CONVERT,
  transactionsToConvert: TRANSACTIONS_TO_CONVERT,
});

const { moduleBlocks, plugin: tableOwnership } = moduleOwnership({
  root: import.meta.dirname,
  readJoins: READ_JOINS,
  tablesWithoutEntity: TABLES_WITHOUT_ENTITY,
  rawWriteExceptions: RAW_WRITE_EXCEPTIONS,
  importPatterns: IMPORT_PATTERNS,
  importPaths: MODULE_IMPORT_PATHS,
});
/** The SQL-text ownership plugin, for src/app.boundaries.spec.ts, which runs it on examples. */
export { tableOwnership };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**'] },
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
      'no-restricted-syntax': [
        'error',
        {
          // The build rewrites the `src/…` paths of static imports only: a dynamic one would fail in
          // dist (found in `cli compare`).
          selector: 'ImportExpression > Literal[value=/^src\\//]',
          message: "A dynamic import names a relative path: the build does not rewrite 'src/…' in import().",
        },
      ],
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
  ...moduleBlocks,
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
        ...['query', 'params'].flatMap((property) =>
          ['req', 'request'].map((object) => ({
            object,
            property,
            message:
              'Declare path and query parameters (@ValidPath / @ValidQuery, src/common/request-input/request-input.ts); outside a handler read them with inputText.',
          })),
        ),
      ],
    },
  },
  {
    // Versions at the edges (VERSIONED_SERVICES_TO_CONVERT above). A rule of its own name, so the
    // per-module no-restricted-imports blocks keep theirs.
    files: ['src/modules/**/*.service.ts', 'src/modules/**/*.builder.ts'],
    ignores: VERSIONED_SERVICES_TO_CONVERT,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'src/common/versioning/api-version',
              message:
                'A service never sees the API version: the controller picks version-free inputs and rules (perVersion) and maps the result per version (byVersion).',
            },
          ],
        },
      ],
    },
  },
  {
    // Every source file stays under 400 lines (docs/decisions.md#d181); a file that grows past it is
    // split by concern (reads, rules, per sub-resource).
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 399, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Writes named by SQL text or by table name (TABLES_WITHOUT_ENTITY, RAW_WRITE_EXCEPTIONS above).
    files: ['src/**/*.ts'],
    ignores: ['src/database/migrations/**', 'src/**/*.spec.ts'],
    plugins: { 'table-ownership': tableOwnership },
    rules: { 'table-ownership/no-foreign-table-writes': 'error' },
  },
  {
    // One way to the database (eslint/data-access.mjs, docs/architecture.md#data-access): TypeORM's
    // internals only in the adapter, atomicity through the unit of work, SQL in the repositories.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/common/database/typeorm-adapter.ts', 'src/database/migrations/**'],
    plugins: { 'data-access': dataAccessPlugin },
    rules: {
      'data-access/typeorm-internals': 'error',
      'data-access/unit-of-work': 'error',
      'data-access/repository-only': 'error',
    },
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
  {
    // The lint configuration itself: plain JavaScript modules outside the TypeScript project.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
