import { ApiProperty } from '@nestjs/swagger';
import type { Liveness, Readiness } from '../../readiness.service';

export class LivenessDto implements Liveness {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status!: 'ok' | 'degraded';
  @ApiProperty({ enum: ['up', 'down'] }) database!: 'up' | 'down';
}

class OllamaReadinessDto {
  @ApiProperty({ description: 'OLLAMA_HOST, or the default local Ollama' }) host!: string;
  @ApiProperty({ description: 'OLLAMA_HOST is set (without it, sessions are scripted on stand-ins)' }) configured!: boolean;
  @ApiProperty() reachable!: boolean;
}

export class ReadinessDto implements Readiness {
  @ApiProperty() ready!: boolean;
  @ApiProperty({ enum: ['up', 'down'] }) database!: 'up' | 'down';
  @ApiProperty({ type: OllamaReadinessDto }) ollama!: OllamaReadinessDto;
}
