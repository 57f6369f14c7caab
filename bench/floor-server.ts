/**
 * The floor of the stack (bench/floor.ts): the smallest server of each layer this service is built on,
 * answering `GET /api/4.0/ping` with the same body as the service. Run as
 * `node dist/bench/floor-server.js <node|express|nest> <port>`.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { createServer } from 'node:http';

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
  } else {
    throw new Error(`unknown floor server ${kind}`);
  }
}

void main();
