// Fieldbook CRM's one script: the pages work without it; it only keeps the deal form tidy.

// A close date belongs to a won deal only: its field shows while the stage is "Won".
const stage = document.getElementById('stage');
const closeDate = document.getElementById('close-date-field');
if (stage && closeDate) {
  const sync = () => {
    closeDate.hidden = stage.value !== 'Won';
  };
  stage.addEventListener('change', sync);
  sync();
}

// A refused form puts the cursor in the first field at fault, as its problem list says.
const firstInvalid = document.querySelector('[aria-invalid="true"]');
if (firstInvalid) firstInvalid.focus();
