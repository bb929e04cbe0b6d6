// GET /api/doctor: the `loupe doctor` report for the configured Ollama (or a stand-in when unset).
import { Inject, Injectable } from '@nestjs/common';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { doctorForConfig, type DoctorRequest } from '../provider/ollama/doctor/doctor-for-config';
import type { DoctorReport } from '../provider/ollama/doctor/doctor-types';

@Injectable()
export class DoctorService {
  constructor(@Inject(LOUPE_CONFIG) private readonly config: LoupeConfig) {}

  check(req: DoctorRequest): Promise<DoctorReport> {
    return doctorForConfig(this.config.ollama, req);
  }
}
