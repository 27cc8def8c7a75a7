/* The heap report's page (heap.html): its styles, and its start. */
import '../style.css'
import './heap.css'
import { startPage } from '../shared/start.js'
import { startReport } from './report.js'

startPage(startReport)
