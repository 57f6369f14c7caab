// The data-access lint (docs/architecture.md#data-access): TypeORM's internals only in the adapter,
// atomicity only through the unit of work, and in each module TypeORM and SQL only in its
// `<name>.repository.ts`. Configured in eslint.config.mjs, with its lists of modules still to convert.

/** The folder of src/modules a file is in, or undefined. */
function moduleOf(filename) {
  const match = /[/\\]src[/\\]modules[/\\]([^/\\]+)[/\\]/.exec(filename);
  return match?.[1];
}

/** The name of a called method (`x.name(…)`), or undefined. */
function calledMethod(node) {
  const callee = node.callee;
  return callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier'
    ? callee.property.name
    : undefined;
}

const ADAPTER = 'src/common/database/typeorm-adapter.ts';

/** What only a repository imports: TypeORM, and the fast paths and locks written on it. */
const DATA_ACCESS_IMPORTS = [
  'src/common/database/plain-rows',
  'src/common/database/insert-rows',
  'src/common/database/typeorm-adapter',
  'src/common/database/locks',
];

/**
 * The plugin. `toConvert`: the modules whose services still run their own SQL (the repository rule
 * leaves them alone); `transactionsToConvert`: those that still open transactions their own way.
 */
export function dataAccess({ toConvert, transactionsToConvert }) {
  const rules = {
    'typeorm-internals': {
      meta: {
        type: 'problem',
        docs: { description: `TypeORM below its public API only in ${ADAPTER}.` },
        schema: [],
      },
      create(context) {
        const report = (node, what) =>
          context.report({
            node,
            message: `${what} is TypeORM's inside: reach it only through ${ADAPTER} (src/common/database/README.md).`,
          });
        const text = (node, value) =>
          value.includes('orm_param_') && report(node, "The 'orm_param_<n>' naming");
        return {
          ImportDeclaration(node) {
            if (typeof node.source.value === 'string' && node.source.value.startsWith('typeorm/')) {
              report(node, `'${node.source.value}'`);
            }
          },
          'MemberExpression[property.name="expressionMap"]': (node) =>
            report(node, "A query builder's expressionMap"),
          'Identifier[name="DriverUtils"]': (node) => report(node, 'DriverUtils'),
          'MemberExpression[property.name="escapeQueryWithParameters"]': (node) =>
            report(node, "The driver's parameter binding (use bindParameters)"),
          Literal: (node) => typeof node.value === 'string' && text(node, node.value),
          TemplateElement: (node) => text(node, node.value.raw),
        };
      },
    },
    'unit-of-work': {
      meta: {
        type: 'problem',
        docs: {
          description: 'A module makes work atomic with UnitOfWork.run, never a transaction of its own.',
        },
        schema: [],
      },
      create(context) {
        const module = moduleOf(context.filename);
        if (module === undefined || transactionsToConvert.includes(module)) {
          return {};
        }
        const message =
          'Make the work atomic with unitOfWork.run((manager) => …) (src/common/database/unit-of-work.ts): it joins the request transaction or opens one (docs/architecture.md#data-access).';
        return {
          CallExpression(node) {
            const name = node.callee.type === 'Identifier' ? node.callee.name : calledMethod(node);
            if (name === 'transaction' || name === 'inRequestTransaction') {
              context.report({ node, message });
            }
          },
        };
      },
    },
    'repository-only': {
      meta: {
        type: 'problem',
        docs: { description: "A module's TypeORM and SQL are in its <name>.repository.ts only." },
        schema: [],
      },
      create(context) {
        const module = moduleOf(context.filename);
        const file = context.filename;
        if (
          module === undefined ||
          toConvert.includes(module) ||
          /\.(repository|entity|spec)\.ts$/.test(file)
        ) {
          return {};
        }
        const isModuleFile = file.endsWith('.module.ts');
        const message = (what) =>
          `${what}: a module's data access is in its <name>.repository.ts (docs/architecture.md#data-access); services call its methods and hand on a TransactionManager (src/common/database/unit-of-work.ts).`;
        return {
          ImportDeclaration(node) {
            const source = node.source.value;
            if (typeof source !== 'string') {
              return;
            }
            if (
              source === 'typeorm' ||
              source.startsWith('typeorm/') ||
              (source === '@nestjs/typeorm' && !isModuleFile) ||
              DATA_ACCESS_IMPORTS.includes(source)
            ) {
              context.report({ node, message: message(`'${source}' imported outside the repository`) });
            }
          },
          CallExpression(node) {
            const method = calledMethod(node);
            if (method === 'query' || method === 'createQueryBuilder' || method === 'getRepository') {
              context.report({ node, message: message(`.${method}() outside the repository`) });
            }
          },
        };
      },
    },
  };
  return { meta: { name: 'data-access' }, rules };
}
