/* The flamegraph report's page (index.html): its styles, and its start. */
import '../style.css'
import { startPage } from '../shared/start.js'
import { startReport } from './report.js'

startPage(startReport)
