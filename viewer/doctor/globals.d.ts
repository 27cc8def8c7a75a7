// uPlot is inlined before the report's scripts (lib/report/doctor-html.js); the report uses a small part of it.
declare const uPlot: any
