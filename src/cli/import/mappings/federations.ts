import { sameColumns, type TableMapping } from 'src/cli/import/mapping';

export const federations: TableMapping = sameColumns('federation', [
  'id',
  'cname',
  'description',
  'ttl',
  'last_updated',
]);

export const federationDeliveryServices: TableMapping = {
  table: 'federation_deliveryservice',
  from: ['federation_deliveryservice'],
  key: ['federation', 'deliveryservice'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY federation, deliveryservice) AS id, federation, deliveryservice, last_updated ' +
    'FROM federation_deliveryservice ORDER BY federation, deliveryservice',
};

export const federationResolvers: TableMapping = sameColumns('federation_resolver', [
  'id',
  'ip_address',
  'type',
  'last_updated',
]);

export const federationFederationResolvers: TableMapping = {
  table: 'federation_federation_resolver',
  from: ['federation_federation_resolver'],
  key: ['federation', 'federation_resolver'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY federation, federation_resolver) AS id, federation, federation_resolver, ' +
    'last_updated FROM federation_federation_resolver ORDER BY federation, federation_resolver',
};

export const federationUsers: TableMapping = {
  table: 'federation_tmuser',
  from: ['federation_tmuser'],
  key: ['federation', 'tm_user'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY federation, tm_user) AS id, federation, tm_user, role, last_updated ' +
    'FROM federation_tmuser ORDER BY federation, tm_user',
};
