import { Global, Module } from '@nestjs/common';
import { WireCompatService } from 'src/common/wire/wire-compat.service';

/** Makes the WIRE_COMPAT setting injectable everywhere (docs/decisions.md#d5a). */
@Global()
@Module({ providers: [WireCompatService], exports: [WireCompatService] })
export class WireModule {}
