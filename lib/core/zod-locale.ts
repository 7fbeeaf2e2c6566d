import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';

// The contracts use zod/mini, which loads no locale: without one every built-in check says only
// "Invalid input". Server-side texts (tool errors the model reads, invalid-message acks, CLI usage
// errors) must say what is wrong, so host and runtime load English here. The phone bundle never
// imports this module and stays without the locale's weight.
z.config(en());
