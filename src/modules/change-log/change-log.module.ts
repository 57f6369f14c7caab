import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeLogParticipant } from './change-log.participant';
import { ChangeLogRepository } from './change-log.repository';
import { ChangeLogService } from './change-log.service';
import { LogEntry } from './log.entity';
import { LogsController } from './logs.controller';
import { AuditTrail } from './audit-sink/audit-trail';

/**
 * The change log (`log` table): written by ChangeLogParticipant in each write's transaction, read
 * through GET /logs, and sent off the box by AuditTrail when AUDIT_SINK_URL is set.
 */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntry])],
  controllers: [LogsController],
  providers: [ChangeLogService, ChangeLogRepository, ChangeLogParticipant, AuditTrail],
  exports: [ChangeLogParticipant, ChangeLogService],
})
export class ChangeLogModule {}
