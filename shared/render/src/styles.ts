// The preview stylesheet: every component class the renderer emits. Served inside a <style>
// element whose hash is in the page's CSP (page.ts), so no 'unsafe-inline' is needed.

export const baseStyles = `
:root{--w-font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;--w-mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
--w-fg:#1c2024;--w-muted:#60646c;--w-bg:#fff;--w-subtle:#f7f8f9;--w-border:#e2e4e8;--w-accent:#3b5bdb;--w-accent-fg:#fff;--w-accent-bg:#edf2ff;
--w-info:#1971c2;--w-info-bg:#e7f5ff;--w-success:#2b8a3e;--w-success-bg:#ebfbee;--w-warning:#b35c00;--w-warning-bg:#fff4e6;--w-danger:#c92a2a;--w-danger-bg:#fff5f5;
--w-s1:4px;--w-s2:8px;--w-s3:12px;--w-s4:16px;--w-s5:24px;--w-s6:32px;--w-s7:48px;--w-s8:64px;--w-r:10px;--w-r-sm:6px;--w-shadow:0 1px 2px rgba(16,24,40,.06)}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.55 var(--w-font);color:var(--w-fg);background:var(--w-bg);-webkit-font-smoothing:antialiased}
[hidden]{display:none!important}
.weft-page{display:flex;flex-direction:column}
.weft-section{padding:var(--w-s7) var(--w-s4)}
.weft-surface{margin:0 auto;max-width:960px}
.weft-width-narrow .weft-surface{max-width:680px}.weft-width-wide .weft-surface{max-width:1200px}.weft-width-full .weft-surface{max-width:none}
.weft-section.weft-tone-muted,.weft-band.weft-tone-muted{background:var(--w-subtle)}
.weft-section.weft-tone-accent,.weft-band.weft-tone-accent{background:var(--w-accent-bg)}
.weft-section.weft-tone-inverse,.weft-band.weft-tone-inverse{background:#15171a;color:#f1f3f5;--w-fg:#f1f3f5;--w-muted:#adb5bd;--w-border:#343a40;--w-subtle:#212529;--w-bg:#15171a}
@media (prefers-reduced-motion:no-preference){.weft-motion-fade .weft-surface{animation:weft-fade .4s ease-out}.weft-motion-rise .weft-surface{animation:weft-rise .45s ease-out}}
@keyframes weft-fade{from{opacity:0}}@keyframes weft-rise{from{opacity:0;transform:translateY(12px)}}
.weft-cond{display:contents}
.weft-stack{display:flex;flex-direction:column}
.weft-row{display:flex;flex-direction:row}
.weft-wrap{flex-wrap:wrap}
.weft-stack.weft-align-stretch{align-items:stretch}.weft-stack>.weft-grid,.weft-stack>.weft-columns,.weft-stack>.weft-pricing{align-self:stretch}.weft-align-start{align-items:flex-start}.weft-align-center{align-items:center}.weft-align-end{align-items:flex-end}.weft-row.weft-align-stretch{align-items:stretch}
.weft-justify-start{justify-content:flex-start}.weft-justify-center{justify-content:center}.weft-justify-end{justify-content:flex-end}.weft-justify-between{justify-content:space-between}.weft-justify-around{justify-content:space-around}
.weft-gap-none{gap:0}.weft-gap-sm{gap:var(--w-s2)}.weft-gap-md{gap:var(--w-s4)}.weft-gap-lg{gap:var(--w-s6)}
.weft-grid{display:grid;grid-template-columns:repeat(var(--w-cols,3),minmax(0,1fr))}
.weft-cols-1{--w-cols:1}.weft-cols-2{--w-cols:2}.weft-cols-3{--w-cols:3}.weft-cols-4{--w-cols:4}.weft-cols-5{--w-cols:5}.weft-cols-6{--w-cols:6}
.weft-columns{display:grid}.weft-ratio-1-1{grid-template-columns:1fr 1fr}.weft-ratio-1-2{grid-template-columns:1fr 2fr}.weft-ratio-2-1{grid-template-columns:2fr 1fr}.weft-ratio-1-1-1{grid-template-columns:1fr 1fr 1fr}
@media (max-width:720px){.weft-grid{grid-template-columns:repeat(min(var(--w-cols,3),2),minmax(0,1fr))}.weft-columns{grid-template-columns:1fr}.weft-row{flex-wrap:wrap}}
@media (max-width:480px){.weft-grid{grid-template-columns:1fr}}
.weft-band{border-radius:var(--w-r)}.weft-pad-sm{padding:var(--w-s4)}.weft-pad-md{padding:var(--w-s6)}.weft-pad-lg{padding:var(--w-s8) var(--w-s6)}
.weft-card{background:var(--w-bg);border:1px solid var(--w-border);border-radius:var(--w-r);padding:var(--w-s5);box-shadow:var(--w-shadow);display:flex;flex-direction:column;gap:var(--w-s3);min-width:0}
.weft-card.weft-tone-muted{background:var(--w-subtle)}.weft-card.weft-tone-accent{background:var(--w-accent-bg);border-color:#c5d0fa}
.weft-card-title{margin:0;font-size:1.1rem;font-weight:600;line-height:1.3}
.weft-spacer{flex:none}.weft-space-sm{height:var(--w-s4)}.weft-space-md{height:var(--w-s6)}.weft-space-lg{height:var(--w-s7)}.weft-space-xl{height:var(--w-s8)}
.weft-divider{border:0;border-top:1px solid var(--w-border);margin:var(--w-s2) 0;width:100%}
.weft-divider.weft-axis-vertical{border-top:0;border-left:1px solid var(--w-border);width:auto;align-self:stretch;margin:0 var(--w-s2)}
.weft-heading{margin:0;line-height:1.2;letter-spacing:-.01em;font-weight:700}
h1.weft-heading{font-size:clamp(2rem,4vw,2.75rem)}h2.weft-heading{font-size:clamp(1.5rem,3vw,2rem)}h3.weft-heading{font-size:1.3rem}h4.weft-heading{font-size:1.1rem}h5.weft-heading,h6.weft-heading{font-size:1rem}
.weft-text{margin:0}.weft-text.weft-tone-muted{color:var(--w-muted)}.weft-size-sm{font-size:.875rem}.weft-size-lg{font-size:1.2rem;line-height:1.5}
.weft-text a,.weft-markdown a,.weft-link{color:var(--w-accent);text-underline-offset:2px}
code{font-family:var(--w-mono);font-size:.9em;background:var(--w-subtle);border:1px solid var(--w-border);border-radius:4px;padding:0 .3em}
.weft-markdown>:first-child{margin-top:0}.weft-markdown>:last-child{margin-bottom:0}
.weft-markdown pre{background:var(--w-subtle);border:1px solid var(--w-border);border-radius:var(--w-r-sm);padding:var(--w-s3);overflow:auto}.weft-markdown pre code{border:0;padding:0;background:none}
.weft-markdown blockquote{margin:var(--w-s4) 0;padding-left:var(--w-s4);border-left:3px solid var(--w-border);color:var(--w-muted)}
.weft-image{display:block;max-width:100%;height:auto;border-radius:var(--w-r)}.weft-fit-cover{object-fit:cover}.weft-fit-contain{object-fit:contain}
.weft-image-missing,.weft-video-poster{display:flex;align-items:center;justify-content:center;gap:var(--w-s2);min-height:160px;background:var(--w-subtle);border:1px dashed var(--w-border);color:var(--w-muted);border-radius:var(--w-r);padding:var(--w-s4);text-align:center}
.weft-icon{display:inline-flex;vertical-align:middle;color:currentColor}.weft-icon-svg{width:1.25em;height:1.25em}.weft-icon-sm .weft-icon-svg{width:1em;height:1em}.weft-icon-lg .weft-icon-svg{width:2em;height:2em}
.weft-icon-missing{font-size:.75rem;border:1px dashed var(--w-border);border-radius:4px;padding:0 .3em;color:var(--w-muted)}
.weft-button{display:inline-flex;align-items:center;justify-content:center;gap:var(--w-s2);font:inherit;font-weight:600;font-size:.95rem;line-height:1;padding:.7em 1.1em;border-radius:var(--w-r-sm);border:1px solid transparent;text-decoration:none;cursor:pointer;white-space:nowrap}
.weft-button{width:fit-content}.weft-plan .weft-button{width:auto}
.weft-variant-primary{background:var(--w-accent);color:var(--w-accent-fg)}.weft-variant-primary:hover{filter:brightness(1.08)}
.weft-variant-secondary{background:var(--w-bg);color:var(--w-fg);border-color:var(--w-border)}.weft-variant-secondary:hover{background:var(--w-subtle)}
.weft-variant-ghost{background:transparent;color:var(--w-fg)}.weft-variant-ghost:hover{background:var(--w-subtle)}
.weft-variant-link{background:none;color:var(--w-accent);padding:0;text-decoration:underline}
.weft-button:disabled,.weft-button[aria-disabled=true]{opacity:.5;cursor:not-allowed}
.weft-button:focus-visible,.weft-input:focus-visible,.weft-tab-input:focus-visible+.weft-tab-label,summary:focus-visible{outline:2px solid var(--w-accent);outline-offset:2px}
.weft-inert-link{text-decoration:line-through dotted;cursor:not-allowed}
.weft-badge{display:inline-block;font-size:.75rem;font-weight:600;padding:.2em .6em;border-radius:999px;background:var(--w-subtle);color:var(--w-muted);border:1px solid var(--w-border);width:fit-content}
.weft-badge.weft-tone-info,.weft-callout.weft-tone-info{background:var(--w-info-bg);color:var(--w-info);border-color:transparent}
.weft-badge.weft-tone-success,.weft-callout.weft-tone-success{background:var(--w-success-bg);color:var(--w-success);border-color:transparent}
.weft-badge.weft-tone-warning,.weft-callout.weft-tone-warning{background:var(--w-warning-bg);color:var(--w-warning);border-color:transparent}
.weft-badge.weft-tone-danger,.weft-callout.weft-tone-danger{background:var(--w-danger-bg);color:var(--w-danger);border-color:transparent}
.weft-stat{display:flex;flex-direction:column;gap:var(--w-s1)}.weft-stat-label{font-size:.85rem;color:var(--w-muted)}.weft-stat-value{font-size:2rem;font-weight:700;line-height:1.1;font-variant-numeric:tabular-nums}
.weft-stat-trend{font-size:.9rem;margin-left:var(--w-s2)}.weft-trend-up{color:var(--w-success)}.weft-trend-down{color:var(--w-danger)}.weft-stat-caption{font-size:.85rem;color:var(--w-muted)}
.weft-quote{margin:0;padding:var(--w-s2) 0 var(--w-s2) var(--w-s5);border-left:3px solid var(--w-accent);font-size:1.15rem}.weft-quote p{margin:0}.weft-quote footer{margin-top:var(--w-s2);font-size:.9rem;color:var(--w-muted)}.weft-quote cite{font-style:normal}.weft-quote cite::before{content:"— "}
.weft-list{margin:0;padding-left:1.3em}.weft-list li+li{margin-top:var(--w-s1)}
.weft-table-wrap{overflow-x:auto;border:1px solid var(--w-border);border-radius:var(--w-r)}
.weft-table{width:100%;border-collapse:collapse;font-size:.95rem}.weft-table th,.weft-table td{text-align:left;padding:var(--w-s2) var(--w-s3);border-bottom:1px solid var(--w-border)}
.weft-table thead th{background:var(--w-subtle);font-weight:600;font-size:.85rem;color:var(--w-muted)}.weft-table tbody tr:last-child td{border-bottom:0}
.weft-chart{margin:0}.weft-chart figcaption{font-weight:600;margin-bottom:var(--w-s2)}.weft-chart-unit{font-weight:400;color:var(--w-muted)}
.weft-chart-svg{width:100%;height:auto;max-height:320px;display:block}.weft-chart-label{font-size:10px;fill:var(--w-muted)}.weft-chart-axis{stroke:var(--w-border)}
.weft-chart-line{fill:none;stroke:var(--w-accent);stroke-width:2}.weft-chart-area{fill:var(--w-accent);opacity:.15}.weft-chart-dot{fill:var(--w-accent)}.weft-chart-empty{fill:var(--w-subtle)}
.weft-c0{fill:#3b5bdb}.weft-c1{fill:#0ca678}.weft-c2{fill:#f59f00}.weft-c3{fill:#e64980}.weft-c4{fill:#7048e8}.weft-c5{fill:#1098ad}
.weft-video{margin:0}.weft-video-poster{aspect-ratio:16/9;min-height:0;text-decoration:none;color:var(--w-fg);font-weight:600}.weft-video-play{width:40px;height:40px;color:var(--w-accent)}
.weft-tabs{display:flex;flex-wrap:wrap;border-bottom:0}
.weft-tab-input{position:absolute;opacity:0;pointer-events:none}
.weft-tab-label{order:0;padding:var(--w-s2) var(--w-s4);cursor:pointer;color:var(--w-muted);font-weight:600;border-bottom:2px solid var(--w-border)}
.weft-tab-input:checked+.weft-tab-label{color:var(--w-fg);border-bottom-color:var(--w-accent)}
.weft-tabs>.weft-tabpanel,.weft-tabs>.weft-cond>.weft-tabpanel{order:1;flex-basis:100%;display:none;padding-top:var(--w-s4)}
.weft-tab-input:checked+.weft-tab-label+.weft-tabpanel{display:block}
.weft-tabs::after{content:"";order:0;flex:1;border-bottom:2px solid var(--w-border)}
.weft-accordion{border:1px solid var(--w-border);border-radius:var(--w-r);overflow:hidden}
.weft-accordion>.weft-disclosure,.weft-accordion>.weft-cond>.weft-disclosure{border-radius:0;border-width:0 0 1px}
.weft-accordion>.weft-disclosure:last-child{border-bottom:0}
.weft-disclosure,.weft-faq-item{border:1px solid var(--w-border);border-radius:var(--w-r)}
.weft-disclosure>summary,.weft-faq-item>summary{cursor:pointer;padding:var(--w-s3) var(--w-s4);font-weight:600;list-style-position:inside}
.weft-disclosure-body,.weft-faq-answer{padding:0 var(--w-s4) var(--w-s4)}
.weft-faq{display:flex;flex-direction:column;gap:var(--w-s2)}
.weft-field{display:flex;flex-direction:column;gap:var(--w-s1);min-width:0}.weft-field-label{font-size:.9rem;font-weight:600}
.weft-input{font:inherit;padding:.55em .75em;border:1px solid var(--w-border);border-radius:var(--w-r-sm);background:var(--w-bg);color:var(--w-fg);width:100%}
textarea.weft-input{resize:vertical}
.weft-slider-row{display:flex;align-items:center;gap:var(--w-s3)}.weft-range{flex:1;accent-color:var(--w-accent)}.weft-slider output{font-variant-numeric:tabular-nums;min-width:3ch;text-align:right}
.weft-counter .weft-input{max-width:10ch}
.weft-toggle{border:0;padding:0;margin:0;min-width:0}.weft-toggle legend{padding:0;margin-bottom:var(--w-s1)}
.weft-toggle-options{display:inline-flex;border:1px solid var(--w-border);border-radius:var(--w-r-sm);overflow:hidden}
.weft-toggle-option input{position:absolute;opacity:0;pointer-events:none}.weft-toggle-option span{display:block;padding:.45em .9em;cursor:pointer;font-size:.9rem}
.weft-toggle-option+.weft-toggle-option span{border-left:1px solid var(--w-border)}.weft-toggle-option input:checked+span{background:var(--w-accent);color:var(--w-accent-fg)}
.weft-check{display:flex;align-items:center;gap:var(--w-s2)}.weft-check input{width:1.1em;height:1.1em;accent-color:var(--w-accent)}
.weft-form{display:flex;flex-direction:column;gap:var(--w-s4)}.weft-form-actions{display:flex;justify-content:flex-start}
.weft-carousel{overflow-x:auto;scroll-snap-type:x mandatory;overscroll-behavior-x:contain;scrollbar-width:thin}
.weft-carousel-track{display:flex;gap:var(--w-s4);list-style:none;margin:0;padding:0 0 var(--w-s2)}
.weft-slide{flex:0 0 85%;scroll-snap-align:start;min-width:0}@media (min-width:720px){.weft-slide{flex-basis:45%}}
.weft-carousel-nav{position:sticky;left:0;display:flex;gap:var(--w-s2)}.weft-counter-row{display:flex;align-items:center;gap:var(--w-s2)}
.weft-inline-surface{padding:var(--w-s3) 0}.weft-inline-surface .weft-surface{max-width:none}
.weft-check-msg{margin:var(--w-s1,4px) 0 0;color:var(--w-danger);font-size:.85rem}
[data-weft-js][hidden],.weft-check-msg[hidden]{display:none!important}
.weft-callout{display:flex;flex-direction:column;gap:var(--w-s2);padding:var(--w-s4);border-radius:var(--w-r);border-left:4px solid currentColor}
.weft-callout p{margin:0}.weft-callout>:not(.weft-callout-title){color:var(--w-fg)}.weft-callout-title{font-weight:700}.weft-callout-text{color:var(--w-fg)}
.weft-testimonial{margin:0;padding:var(--w-s5);border:1px solid var(--w-border);border-radius:var(--w-r);background:var(--w-bg)}
.weft-testimonial blockquote{margin:0 0 var(--w-s3);font-size:1.1rem}.weft-testimonial blockquote p{margin:0}.weft-testimonial figcaption{display:flex;flex-direction:column;font-size:.9rem}
.weft-testimonial-author{font-weight:600}.weft-testimonial-role{color:var(--w-muted)}
.weft-pricing{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:var(--w-s4)}
.weft-plan{display:flex;flex-direction:column;gap:var(--w-s3);padding:var(--w-s5);border:1px solid var(--w-border);border-radius:var(--w-r);background:var(--w-bg);box-shadow:var(--w-shadow)}
.weft-plan-name{margin:0;font-size:1.1rem}
.weft-plan-popular{border:2px solid var(--w-accent);box-shadow:0 4px 14px rgba(59,91,219,.15)}
.weft-plan-badge{align-self:flex-start;font-size:.75rem;font-weight:600;color:var(--w-accent);background:var(--w-accent-bg);border-radius:999px;padding:2px 10px}.weft-plan-price{margin:0}.weft-plan-amount{font-size:2rem;font-weight:700}.weft-plan-period{color:var(--w-muted);margin-left:2px}
.weft-plan-features{margin:0;padding-left:1.2em;flex:1;color:var(--w-muted);font-size:.95rem}.weft-plan .weft-button{align-self:stretch}
.weft-placeholder{padding:var(--w-s3) var(--w-s4);border:1px dashed var(--w-warning);background:var(--w-warning-bg);color:var(--w-warning);border-radius:var(--w-r-sm);font-size:.85rem}
`.trim();
