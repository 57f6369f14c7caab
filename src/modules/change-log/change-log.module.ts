import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeLogInterceptor } from './change-log.interceptor';
import { ChangeLogService } from './change-log.service';
import { LogEntry } from './log.entity';
import { LogsController } from './logs.controller';

/** The change log (`log` table): written by ChangeLogInterceptor, read through GET /logs. */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntry])],
  controllers: [LogsController],
  providers: [ChangeLogService, ChangeLogInterceptor],
  exports: [ChangeLogInterceptor],
})
export class ChangeLogModule {}
