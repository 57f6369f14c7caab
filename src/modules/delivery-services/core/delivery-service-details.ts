import { BadRequestException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { distinctAsStored } from 'src/common/database/text-order';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { Origin } from 'src/modules/delivery-services/origins/origin.entity';
import { ConsistentHashQueryParam } from './consistent-hash-query-param.entity';
import type { DeliveryServiceInput, DeliveryServiceWrite } from './delivery-service.input';
import { DeliveryServiceTlsVersion } from './delivery-service-tls-version.entity';
import { ACTIVE_STATES, countryCodes, parseOrgServerFqdn } from './delivery-service.validation';

/*
 * A delivery service's columns as a write sets them, and its detail rows (TLS versions, query
 * parameters, the primary origin) written with it; each takes the write's EntityManager.
 */

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** The columns a body sets; `active`, `maxRequestHeaderBytes` and `regional` undefined when the version has none. */
export function columnsOf({ input, carries }: DeliveryServiceWrite): Partial<DeliveryService> {
  if (carries.activeState && input.active !== undefined && input.active !== null) {
    if (!(ACTIVE_STATES as readonly string[]).includes(input.active)) {
      throw new BadRequestException(`invalid enum value ${input.active} for field ds_active_state.`);
    }
  }
  const codes = countryCodes(input);
  return {
    xmlId: input.xmlId!,
    active: input.active ?? undefined,
    anonymousBlockingEnabled: input.anonymousBlockingEnabled ?? false,
    ccrDnsTtl: orNull(input.ccrDnsTtl),
    cdnId: input.cdnId!,
    checkPath: orNull(input.checkPath),
    consistentHashRegex: orNull(input.consistentHashRegex),
    deepCachingType: input.deepCachingType!,
    displayName: input.displayName!,
    dnsBypassCname: orNull(input.dnsBypassCname),
    dnsBypassIp: orNull(input.dnsBypassIp),
    dnsBypassIp6: orNull(input.dnsBypassIp6),
    dnsBypassTtl: orNull(input.dnsBypassTtl),
    dscp: input.dscp!,
    ecsEnabled: input.ecsEnabled ?? false,
    edgeHeaderRewrite: orNull(input.edgeHeaderRewrite),
    firstHeaderRewrite: orNull(input.firstHeaderRewrite),
    fqPacingRate: orNull(input.fqPacingRate),
    geoLimit: input.geoLimit!,
    geoLimitCountries: codes.length > 0 ? codes.join(',') : null,
    geoLimitRedirectUrl: orNull(input.geoLimitRedirectURL),
    geoProvider: orNull(input.geoProvider),
    globalMaxMbps: orNull(input.globalMaxMbps),
    globalMaxTps: orNull(input.globalMaxTps),
    httpBypassFqdn: orNull(input.httpBypassFqdn),
    infoUrl: orNull(input.infoUrl),
    initialDispersion: orNull(input.initialDispersion),
    innerHeaderRewrite: orNull(input.innerHeaderRewrite),
    ipv6RoutingEnabled: input.ipv6RoutingEnabled ?? false,
    lastHeaderRewrite: orNull(input.lastHeaderRewrite),
    logsEnabled: input.logsEnabled!,
    longDesc: orNull(input.longDesc),
    maxDnsAnswers: orNull(input.maxDnsAnswers),
    maxOriginConnections: orNull(input.maxOriginConnections),
    maxRequestHeaderBytes: input.maxRequestHeaderBytes ?? undefined,
    midHeaderRewrite: orNull(input.midHeaderRewrite),
    missLat: orNull(input.missLat),
    missLong: orNull(input.missLong),
    multiSiteOrigin: input.multiSiteOrigin ?? false,
    originShield: orNull(input.originShield),
    profileId: orNull(input.profileId),
    protocol: orNull(input.protocol),
    qstringIgnore: orNull(input.qstringIgnore),
    rangeRequestHandling: orNull(input.rangeRequestHandling),
    rangeSliceBlockSize: orNull(input.rangeSliceBlockSize),
    regexRemap: orNull(input.regexRemap),
    regional: input.regional ?? undefined,
    regionalGeoBlocking: input.regionalGeoBlocking!,
    remapText: orNull(input.remapText),
    routingName: input.routingName!,
    serviceCategory: orNull(input.serviceCategory),
    signingAlgorithm: orNull(input.signingAlgorithm),
    sslKeyVersion: orNull(input.sslKeyVersion),
    tenantId: input.tenantId!,
    topology: orNull(input.topology),
    trRequestHeaders: orNull(input.trRequestHeaders),
    trResponseHeaders: orNull(input.trResponseHeaders),
    typeId: input.typeId!,
  };
}

export async function replaceTlsVersions(
  manager: EntityManager,
  dsId: number,
  versions?: string[] | null,
): Promise<string[]> {
  await manager.delete(DeliveryServiceTlsVersion, { deliveryServiceId: dsId });
  return addTlsVersions(manager, dsId, versions);
}

/** Adds the TLS versions (the validation refused repeats); answers them as a read-back lists them. */
export async function addTlsVersions(
  manager: EntityManager,
  dsId: number,
  versions?: string[] | null,
): Promise<string[]> {
  await insertRows(
    manager,
    DeliveryServiceTlsVersion,
    (versions ?? []).map((tlsVersion) => ({ deliveryServiceId: dsId, tlsVersion })),
  );
  return distinctAsStored(versions ?? []);
}

export async function replaceQueryParams(
  manager: EntityManager,
  dsId: number,
  names?: string[] | null,
): Promise<string[]> {
  await manager.delete(ConsistentHashQueryParam, { deliveryServiceId: dsId });
  return addQueryParams(manager, dsId, names);
}

/** Adds the query parameters, each name once; answers them as a read-back lists them. */
export async function addQueryParams(
  manager: EntityManager,
  dsId: number,
  names?: string[] | null,
): Promise<string[]> {
  const unique = distinctAsStored(names ?? []);
  await insertRows(
    manager,
    ConsistentHashQueryParam,
    unique.map((name) => ({ deliveryServiceId: dsId, name })),
  );
  return unique;
}

/** The primary origin mirrors orgServerFqdn: created, updated or deleted with it. */
export async function syncPrimaryOrigin(
  manager: EntityManager,
  dsId: number,
  input: DeliveryServiceInput,
): Promise<void> {
  const current = await manager.findOneBy(Origin, { deliveryServiceId: dsId, isPrimary: true });
  const parsed = primaryOriginOf(input);
  if (!parsed) {
    if (current) {
      await manager.delete(Origin, { id: current.id });
    }
    return;
  }
  if (current) {
    if (
      current.protocol !== parsed.protocol ||
      current.fqdn !== parsed.fqdn ||
      current.port !== parsed.port
    ) {
      await manager.update(Origin, { id: current.id }, parsed);
    }
    return;
  }
  await addPrimaryOrigin(manager, dsId, input);
}

/**
 * The primary origin of orgServerFqdn for a delivery service that has none yet; answers the
 * orgServerFqdn a read-back gives (null without one).
 */
export async function addPrimaryOrigin(
  manager: EntityManager,
  dsId: number,
  input: DeliveryServiceInput,
): Promise<string | null> {
  const parsed = primaryOriginOf(input);
  if (!parsed) {
    return null;
  }
  await insertRows(manager, Origin, {
    name: input.xmlId!,
    fqdn: parsed.fqdn,
    protocol: parsed.protocol,
    port: parsed.port,
    isPrimary: true,
    deliveryServiceId: dsId,
    tenantId: input.tenantId ?? null,
  });
  return originUrl(parsed);
}

/** The primary origin orgServerFqdn names, or undefined when the body names none. */
function primaryOriginOf(input: DeliveryServiceInput): ReturnType<typeof parseOrgServerFqdn> | undefined {
  return input.orgServerFqdn === undefined || input.orgServerFqdn === null || input.orgServerFqdn === ''
    ? undefined
    : parseOrgServerFqdn(input.orgServerFqdn);
}

/** orgServerFqdn as the primary origin's columns give it. */
export function originUrl(origin: { protocol: string; fqdn: string; port: number | null }): string {
  return `${origin.protocol}://${origin.fqdn}${origin.port === null ? '' : `:${origin.port}`}`;
}
