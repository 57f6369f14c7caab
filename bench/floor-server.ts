/**
 * The floor of the stack (bench/floor.ts): the smallest server of each layer this service is built on,
 * answering `GET /api/4.0/ping` with the same body as the service; and, with a database (DATABASE_URL,
 * the bench's, its `cdn` table as the comparison's data set has it), the smallest Nest server
 * answering `GET /api/4.0/cdns` in the service's shape through mysql2 alone or through TypeORM's raw
 * query. Run as `node dist/bench/floor-server.js <kind> <port>`.
 */
import 'reflect-metadata';
import { Controller, Get, Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
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

async function queryFor(kind: string): Promise<Query> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(`${kind} needs DATABASE_URL`);
  }
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
  } else {
    throw new Error(`unknown floor server ${kind}`);
  }
}

void main();
