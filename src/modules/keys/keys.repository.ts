import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The delivery service a key route is about. */
export interface KeyOwner {
  id: number;
  xmlId: string;
  tenantId: number;
  typeName: string;
}

/**
 * What the SSL, URL signing and URI signing keys read of the delivery services they belong to: the
 * only file of the module's root that runs SQL (docs/architecture.md#data-access); the key store and
 * the DNSSEC keys have their own (store/key-store.repository.ts, dnssec/dnssec.repository.ts).
 */
@Injectable()
export class KeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The delivery service of that XML id, or undefined. */
  ownerByXmlId(xmlId: string): Promise<KeyOwner | undefined> {
    return this.owner('ds.xml_id = ?', xmlId);
  }

  /** The delivery service of that id, or undefined. */
  ownerById(id: number): Promise<KeyOwner | undefined> {
    return this.owner('ds.id = ?', id);
  }

  private async owner(condition: string, value: string | number): Promise<KeyOwner | undefined> {
    const rows: { id: number | string; xmlId: string; tenantId: number | string; typeName: string }[] =
      await this.dataSource.query(
        'SELECT ds.id AS id, ds.xml_id AS xmlId, ds.tenant_id AS tenantId, t.name AS typeName ' +
          `FROM deliveryservice ds JOIN type t ON t.id = ds.type WHERE ${condition}`,
        [value],
      );
    const row = rows[0];
    return row
      ? { id: Number(row.id), xmlId: row.xmlId, tenantId: Number(row.tenantId), typeName: row.typeName }
      : undefined;
  }
}
