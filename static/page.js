// The few things the pages made when the site is built need a script for (revise.html and
// debate.html: src/view/revise.rs, src/view/debate.rs): the Print button, and each scenario
// link's whole address, which the print style sheet writes after it.
for (const a of document.querySelectorAll('a.demo')) a.dataset.url = a.href;
document.querySelector('[data-print]')?.addEventListener('click', () => print());
