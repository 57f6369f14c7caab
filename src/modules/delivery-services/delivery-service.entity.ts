import {
  Column,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';
import { Cdn } from 'src/modules/cdns/cdn.entity';
import { Profile } from 'src/modules/profiles/profile.entity';
import { ServiceCategory } from 'src/modules/service-categories/service-category.entity';
import { Tenant } from 'src/modules/tenants/tenant.entity';
import { Topology } from 'src/modules/topologies/topology.entity';
import { Type } from 'src/modules/types/type.entity';

/** A delivery service (docs/original-behaviour.md#schema); `active` is ACTIVE, INACTIVE or PRIMED. */
@Entity({ name: 'deliveryservice' })
@Unique('uq_deliveryservice__xml_id', ['xmlId'])
@Index('ix_deliveryservice__cdn_id', ['cdnId'])
@Index('ix_deliveryservice__last_updated', ['lastUpdated'])
@Index('ix_deliveryservice__tenant_id', ['tenantId'])
@Index('ix_deliveryservice__type', ['typeId'])
export class DeliveryService {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'xml_id', type: 'varchar', length: 48 })
  xmlId!: string;

  @Column({ type: 'varchar', length: 16 })
  active!: string;

  @Column({ type: 'integer' })
  dscp!: number;

  @Column({ name: 'signing_algorithm', type: 'varchar', length: 16, nullable: true })
  signingAlgorithm!: string | null;

  @Column({ name: 'qstring_ignore', type: 'integer', nullable: true })
  qstringIgnore!: number | null;

  @Column({ name: 'geo_limit', type: 'integer', default: 0 })
  geoLimit!: number;

  @Column({ name: 'http_bypass_fqdn', type: 'varchar', length: 255, nullable: true })
  httpBypassFqdn!: string | null;

  @Column({ name: 'dns_bypass_ip', type: 'varchar', length: 64, nullable: true })
  dnsBypassIp!: string | null;

  @Column({ name: 'dns_bypass_ip6', type: 'varchar', length: 64, nullable: true })
  dnsBypassIp6!: string | null;

  @Column({ name: 'dns_bypass_ttl', type: 'integer', nullable: true })
  dnsBypassTtl!: number | null;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @Column({ name: 'profile', type: 'integer', nullable: true })
  profileId!: number | null;

  @Column({ name: 'cdn_id', type: 'integer' })
  cdnId!: number;

  @Column({ name: 'ccr_dns_ttl', type: 'integer', nullable: true })
  ccrDnsTtl!: number | null;

  @Column({ name: 'global_max_mbps', type: 'integer', nullable: true })
  globalMaxMbps!: number | null;

  @Column({ name: 'global_max_tps', type: 'integer', nullable: true })
  globalMaxTps!: number | null;

  @Column({ name: 'long_desc', type: 'text', nullable: true })
  longDesc!: string | null;

  @Column({ name: 'long_desc_1', type: 'text', nullable: true })
  longDesc1!: string | null;

  @Column({ name: 'long_desc_2', type: 'text', nullable: true })
  longDesc2!: string | null;

  @Column({ name: 'max_dns_answers', type: 'integer', nullable: true, default: 5 })
  maxDnsAnswers!: number | null;

  @Column({ name: 'info_url', type: 'varchar', length: 255, nullable: true })
  infoUrl!: string | null;

  @Column({ name: 'miss_lat', type: 'double', nullable: true })
  missLat!: number | null;

  @Column({ name: 'miss_long', type: 'double', nullable: true })
  missLong!: number | null;

  @Column({ name: 'check_path', type: 'varchar', length: 255, nullable: true })
  checkPath!: string | null;

  @Column({ type: 'integer', nullable: true, default: 0 })
  protocol!: number | null;

  @Column({ name: 'ssl_key_version', type: 'integer', nullable: true, default: 0 })
  sslKeyVersion!: number | null;

  @Column(booleanColumn({ name: 'ipv6_routing_enabled', default: false }))
  ipv6RoutingEnabled!: boolean;

  @Column({ name: 'range_request_handling', type: 'integer', nullable: true, default: 0 })
  rangeRequestHandling!: number | null;

  @Column({ name: 'edge_header_rewrite', type: 'text', nullable: true })
  edgeHeaderRewrite!: string | null;

  @Column({ name: 'origin_shield', type: 'varchar', length: 1024, nullable: true })
  originShield!: string | null;

  @Column({ name: 'mid_header_rewrite', type: 'text', nullable: true })
  midHeaderRewrite!: string | null;

  @Column({ name: 'regex_remap', type: 'text', nullable: true })
  regexRemap!: string | null;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  cacheurl!: string | null;

  @Column({ name: 'remap_text', type: 'text', nullable: true })
  remapText!: string | null;

  @Column(booleanColumn({ name: 'multi_site_origin', default: false }))
  multiSiteOrigin!: boolean;

  @Column({ name: 'display_name', type: 'varchar', length: 48 })
  displayName!: string;

  @Column({ name: 'tr_response_headers', type: 'text', nullable: true })
  trResponseHeaders!: string | null;

  @Column({ name: 'initial_dispersion', type: 'integer', nullable: true, default: 1 })
  initialDispersion!: number | null;

  @Column({ name: 'dns_bypass_cname', type: 'varchar', length: 255, nullable: true })
  dnsBypassCname!: string | null;

  @Column({ name: 'tr_request_headers', type: 'text', nullable: true })
  trRequestHeaders!: string | null;

  @Column(booleanColumn({ name: 'regional_geo_blocking', default: false }))
  regionalGeoBlocking!: boolean;

  @Column({ name: 'geo_provider', type: 'integer', nullable: true, default: 0 })
  geoProvider!: number | null;

  @Column({ name: 'geo_limit_countries', type: 'text', nullable: true })
  geoLimitCountries!: string | null;

  @Column(booleanColumn({ name: 'logs_enabled', default: false }))
  logsEnabled!: boolean;

  @Column({ name: 'geolimit_redirect_url', type: 'varchar', length: 1024, nullable: true })
  geoLimitRedirectUrl!: string | null;

  @Column({ name: 'tenant_id', type: 'integer' })
  tenantId!: number;

  @Column({ name: 'routing_name', type: 'varchar', length: 48 })
  routingName!: string;

  @Column({ name: 'deep_caching_type', type: 'varchar', length: 8 })
  deepCachingType!: string;

  @Column({ name: 'fq_pacing_rate', type: 'integer', nullable: true, default: 0 })
  fqPacingRate!: number | null;

  @Column(booleanColumn({ name: 'anonymous_blocking_enabled', default: false }))
  anonymousBlockingEnabled!: boolean;

  @Column({ name: 'consistent_hash_regex', type: 'varchar', length: 1024, nullable: true })
  consistentHashRegex!: string | null;

  @Column({ name: 'max_origin_connections', type: 'integer', nullable: true, default: 0 })
  maxOriginConnections!: number | null;

  @Column(booleanColumn({ name: 'ecs_enabled', default: false }))
  ecsEnabled!: boolean;

  @Column({ name: 'range_slice_block_size', type: 'integer', nullable: true })
  rangeSliceBlockSize!: number | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  @ForeignKey(() => Topology, (t: Topology) => t.name, {
    name: 'fk_deliveryservice__topology',
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  })
  topology!: string | null;

  @Column({ name: 'first_header_rewrite', type: 'text', nullable: true })
  firstHeaderRewrite!: string | null;

  @Column({ name: 'inner_header_rewrite', type: 'text', nullable: true })
  innerHeaderRewrite!: string | null;

  @Column({ name: 'last_header_rewrite', type: 'text', nullable: true })
  lastHeaderRewrite!: string | null;

  @Column({ name: 'service_category', type: 'varchar', length: 255, nullable: true })
  @ForeignKey(() => ServiceCategory, (c: ServiceCategory) => c.name, {
    name: 'fk_deliveryservice__service_category',
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  })
  serviceCategory!: string | null;

  @Column({ name: 'max_request_header_bytes', type: 'integer', default: 0 })
  maxRequestHeaderBytes!: number;

  @Column(booleanColumn({ default: false }))
  regional!: boolean;

  @ManyToOne(() => Type, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'type', foreignKeyConstraintName: 'fk_deliveryservice__type' })
  type?: Type;

  @ManyToOne(() => Profile, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'profile', foreignKeyConstraintName: 'fk_deliveryservice__profile' })
  profile?: Profile | null;

  @ManyToOne(() => Cdn, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'cdn_id', foreignKeyConstraintName: 'fk_deliveryservice__cdn_id' })
  cdn?: Cdn;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'fk_deliveryservice__tenant_id' })
  tenant?: Tenant;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
