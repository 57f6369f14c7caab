import { BadRequestException } from '@nestjs/common';
import { distinctAsStored } from 'src/common/database/text-order';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import type { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import type { DeliveryServiceInput, DeliveryServiceWrite } from './delivery-service.input';
import type { DeliveryServicesRepository } from './delivery-services.repository';
import { ACTIVE_STATES, countryCodes, parseOrgServerFqdn } from './delivery-service-rules';

/*
 * A delivery service's columns as a write sets them, and its detail rows (TLS versions, query
 * parameters, the primary origin) written with it through the repository; each takes the write's
 * TransactionManager.
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
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  dsId: number,
  versions?: string[] | null,
): Promise<string[]> {
  await repository.removeTlsVersions(manager, dsId);
  return addTlsVersions(repository, manager, dsId, versions);
}

/** Adds the TLS versions (the validation refused repeats); answers them as a read-back lists them. */
export async function addTlsVersions(
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  dsId: number,
  versions?: string[] | null,
): Promise<string[]> {
  await repository.addTlsVersions(manager, dsId, versions ?? []);
  return distinctAsStored(versions ?? []);
}

export async function replaceQueryParams(
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  dsId: number,
  names?: string[] | null,
): Promise<string[]> {
  await repository.removeQueryParams(manager, dsId);
  return addQueryParams(repository, manager, dsId, names);
}

/** Adds the query parameters, each name once; answers them as a read-back lists them. */
export async function addQueryParams(
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  dsId: number,
  names?: string[] | null,
): Promise<string[]> {
  const unique = distinctAsStored(names ?? []);
  await repository.addQueryParams(manager, dsId, unique);
  return unique;
}

/** The primary origin mirrors orgServerFqdn: created, updated or deleted with it. */
export async function syncPrimaryOrigin(
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  dsId: number,
  input: DeliveryServiceInput,
): Promise<void> {
  const current = await repository.primaryOrigin(manager, dsId);
  const parsed = primaryOriginOf(input);
  if (!parsed) {
    if (current) {
      await repository.removeOrigin(manager, current.id);
    }
    return;
  }
  if (current) {
    if (
      current.protocol !== parsed.protocol ||
      current.fqdn !== parsed.fqdn ||
      current.port !== parsed.port
    ) {
      await repository.changeOrigin(manager, current.id, parsed);
    }
    return;
  }
  await addPrimaryOrigin(repository, manager, dsId, input);
}

/**
 * The primary origin of orgServerFqdn for a delivery service that has none yet; answers the
 * orgServerFqdn a read-back gives (null without one).
 */
export async function addPrimaryOrigin(
  repository: DeliveryServicesRepository,
  manager: TransactionManager,
  dsId: number,
  input: DeliveryServiceInput,
): Promise<string | null> {
  const parsed = primaryOriginOf(input);
  if (!parsed) {
    return null;
  }
  await repository.addPrimaryOrigin(manager, dsId, {
    name: input.xmlId!,
    fqdn: parsed.fqdn,
    protocol: parsed.protocol,
    port: parsed.port,
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
