/**
 * The floor of the stack (bench/floor.ts): the smallest server of each layer this service is built on,
 * answering `GET /api/4.0/ping` with the same body as the service; and, with a database (DATABASE_URL,
 * the bench's, prepared by bench/run.ts's `floorDatabase`), the smallest Nest server answering
 * `GET /api/4.0/cdns` in the service's shape through mysql2 alone or through TypeORM's raw query, and
 * the smallest Nest server creating an ASN as the service does (`POST /api/4.0/asns`: the JSON body
 * validated by class-validator, then one transaction of the same statements). Run as
 * `node dist/bench/floor-server.js <kind> <port>`.
 */
import 'reflect-metadata';
// eslint-disable-next-line no-restricted-imports -- the floor is the stack's own body handling, not the service's
import { Body, Controller, Get, HttpCode, Inject, Module, Post, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { IsInt, Max, Min } from 'class-validator';
import express from 'express';
import { createServer } from 'node:http';
import * as mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { formatTrafficOpsTime } from 'src/common/time/timestamps';

const BODY = JSON.stringify({ ping: 'pong' });

@Controller('api/4.0')
class PingController {
  @Get('ping')
  ping(): { ping: string } {
    return { ping: 'pong' };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

/** The service's CDN list query and 4.0 shape (src/modules/cdns), without what is around it. */
const CDN_QUERY =
  'SELECT id, name, domain_name, dnssec_enabled, ttl_override, last_updated FROM cdn ORDER BY name ASC';

interface CdnRow {
  id: number;
  name: string;
  domain_name: string;
  dnssec_enabled: number;
  ttl_override: number | null;
  last_updated: Date;
}

const toCdn = (row: CdnRow) => ({
  dnssecEnabled: row.dnssec_enabled === 1,
  domainName: row.domain_name,
  id: row.id,
  lastUpdated: formatTrafficOpsTime(row.last_updated),
  name: row.name,
});

/** Runs one SQL statement: through a mysql2 pool, or TypeORM's DataSource.query. */
type Query = (sql: string) => Promise<CdnRow[]>;
const QUERY = Symbol('query');

@Controller('api/4.0')
class CdnsController {
  constructor(@Inject(QUERY) private readonly query: Query) {}

  @Get('cdns')
  async list(): Promise<{ response: ReturnType<typeof toCdn>[] }> {
    return { response: (await this.query(CDN_QUERY)).map(toCdn) };
  }
}

/** The body of an ASN's creation, validated as the service validates it (src/modules/cachegroups/dto). */
class AsnBody {
  @IsInt()
  @Min(0)
  @Max(4_294_967_295)
  asn!: number;

  @IsInt()
  @Min(1)
  cachegroupId!: number;
}

const DATA_SOURCE = Symbol('dataSource');
/** The user the change log's entries name (the database's first). */
const USER_ID = Symbol('userId');

/**
 * An ASN's creation with nothing of the service's around it (no session, authorization, envelope,
 * headers, digest or log): the statements the service runs for it on MariaDB (BEGIN, INSERT … RETURNING,
 * the change log's INSERT, COMMIT) on one TypeORM query runner, answering the new row.
 */
@Controller('api/4.0')
class AsnsController {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(USER_ID) private readonly userId: number,
  ) {}

  @Post('asns')
  @HttpCode(200)
  async create(
    @Body(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })) body: AsnBody,
  ): Promise<{ alerts: { text: string; level: string }[]; response: object }> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const [row] = (await runner.query(
        'INSERT INTO asn (asn, cachegroup) VALUES (?, ?) RETURNING id, last_updated',
        [body.asn, body.cachegroupId],
      )) as { id: number; last_updated: Date }[];
      await runner.query('INSERT INTO log (level, message, tm_user) VALUES (?, ?, ?)', [
        'APICHANGE',
        `ASN: ${body.asn}, ID: ${row.id}, ACTION: Created`,
        this.userId,
      ]);
      await runner.commitTransaction();
      return {
        alerts: [{ text: 'asn was created.', level: 'success' }],
        response: {
          asn: body.asn,
          cachegroupId: body.cachegroupId,
          id: row.id,
          lastUpdated: formatTrafficOpsTime(row.last_updated),
        },
      };
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }
}

function databaseUrl(kind: string): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(`${kind} needs DATABASE_URL`);
  }
  return url;
}

async function queryFor(kind: string): Promise<Query> {
  const url = databaseUrl(kind);
  if (kind === 'nest-mysql2') {
    const pool = mysql.createPool({ uri: url, connectionLimit: 10, dateStrings: false });
    return async (sql) => (await pool.query(sql))[0] as CdnRow[];
  }
  const dataSource = await new DataSource({ type: 'mysql', url, poolSize: 10 }).initialize();
  return (sql) => dataSource.query<CdnRow[]>(sql);
}

async function main(): Promise<void> {
  const [kind, portText] = process.argv.slice(2);
  const port = Number(portText);
  if (kind === 'node') {
    createServer((req, res) => {
      if (req.url === '/api/4.0/ping') {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(BODY);
      } else {
        res.writeHead(404).end();
      }
    }).listen(port, '127.0.0.1');
  } else if (kind === 'express') {
    const app = express();
    app.get('/api/4.0/ping', (_req, res) => {
      res.json({ ping: 'pong' });
    });
    app.listen(port, '127.0.0.1');
  } else if (kind === 'nest') {
    const app = await NestFactory.create<NestExpressApplication>(PingModule, {
      logger: false,
      bodyParser: false,
    });
    await app.listen(port, '127.0.0.1');
  } else if (kind === 'nest-mysql2' || kind === 'nest-typeorm') {
    const query = await queryFor(kind);
    @Module({ controllers: [CdnsController], providers: [{ provide: QUERY, useValue: query }] })
    class CdnsModule {}
    const app = await NestFactory.create<NestExpressApplication>(CdnsModule, {
      logger: false,
      bodyParser: false,
    });
    await app.listen(port, '127.0.0.1');
  } else if (kind === 'nest-typeorm-write') {
    const dataSource = await new DataSource({
      type: 'mysql',
      url: databaseUrl(kind),
      poolSize: 10,
    }).initialize();
    const [user] = await dataSource.query<{ id: number }[]>('SELECT MIN(id) AS id FROM tm_user');
    @Module({
      controllers: [PingController, AsnsController],
      providers: [
        { provide: DATA_SOURCE, useValue: dataSource },
        { provide: USER_ID, useValue: user.id },
      ],
    })
    class AsnsModule {}
    const app = await NestFactory.create<NestExpressApplication>(AsnsModule, { logger: false });
    await app.listen(port, '127.0.0.1');
  } else {
    throw new Error(`unknown floor server ${kind}`);
  }
}

void main();
